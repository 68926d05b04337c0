//! The variants a program can play: the built-ins plus the variant files it was given,
//! with the errors of the files that did not load. Finding and reading the files is
//! the files crate's (`hexchess_files::variants`): the rules crate does no I/O.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::bitboard::WideBitboard;
use crate::rules::Rules;
use crate::variant::builtin::BuiltinVariant;
use crate::variant::{BUILTIN_VARIANTS, Problem, VariantError, VariantSpec, parse_variant};

/// Where a variant came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantSource {
    /// Compiled into the program (or a file with a built-in's very text).
    Builtin,
    /// A variant file: its path, which the catalog forgets it by when the file goes.
    File(PathBuf),
}

/// A playable variant: two sides or more, each played through the one
/// [`crate::game::Game`] type.
#[derive(Clone, Debug)]
pub struct CatalogEntry {
    /// The variant as its file describes it (checked).
    pub spec: VariantSpec,
    /// The variant's rules on the wide cell sets: what every game of it is played by.
    /// A two-player variant's are compiled on first use (the engine's tools, which
    /// search on the narrow sets, never need them; a start-up compiling both for every
    /// variant took twice as long); a clone shares them.
    wide: Arc<OnceLock<Arc<Rules<WideBitboard>>>>,
    /// A two-player variant's rules on the narrow cell sets (one 128-bit word), which
    /// the engine's search, perft and the endgame tables run on; `None` for a game of
    /// more sides.
    pub two_player: Option<Arc<Rules>>,
    /// Where it came from.
    pub source: VariantSource,
}

impl CatalogEntry {
    /// The variant's id (`glinski`): what files, FEN tags and the protocol name it by.
    pub fn id(&self) -> &str {
        &self.spec.id
    }

    /// The variant's name as menus show it (`Gliński's chess`).
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The variant's rules on the wide cell sets: what every game of it is played by.
    pub fn rules(&self) -> &Arc<Rules<WideBitboard>> {
        self.wide.get_or_init(|| {
            // Only a two-player variant gets here uncompiled, and its narrow rules
            // compiled from this spec: the wide cell sets hold every board the narrow
            // ones do, and the compiler checks nothing else that depends on them, so
            // this cannot fail.
            let rules = Rules::<WideBitboard>::compile(&self.spec)
                .expect("a variant that compiles on the narrow cell sets compiles on the wide");
            Arc::new(rules)
        })
    }

    /// How many sides play.
    pub fn side_count(&self) -> usize {
        self.spec.sides.len()
    }

    /// The two-player rules on the narrow cell sets (see [`CatalogEntry::two_player`]).
    pub fn two_player_rules(&self) -> Option<Arc<Rules>> {
        self.two_player.clone()
    }
}

/// Loaded variants and load errors.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    entries: Vec<CatalogEntry>,
    errors: Vec<VariantError>,
}

/// A variant compiled: a two-player variant on the narrow cell sets (its wide rules
/// come when first asked for: [`CatalogEntry::rules`]), a game of more sides on the
/// wide ones.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The rules on the wide cell sets: a game of more sides' (a two-player variant's
    /// are compiled when first asked for).
    pub rules: Option<Arc<Rules<WideBitboard>>>,
    /// A two-player variant's rules on the narrow cell sets.
    pub two_player: Option<Arc<Rules>>,
}

/// Checks and compiles a variant of any number of sides, turning rule-compilation
/// problems into a variant error that names `file`. A two-player variant is compiled
/// on the narrow cell sets (its board must fit them, as the engine searches on them;
/// the wide rules follow from the same spec when first asked for).
pub fn compile(spec: &VariantSpec, file: &str) -> Result<Compiled, VariantError> {
    if spec.sides.len() > 2 {
        let rules = Rules::<WideBitboard>::compile(spec)
            .map(Arc::new)
            .map_err(|e| rules_error(file, e))?;
        return Ok(Compiled {
            rules: Some(rules),
            two_player: None,
        });
    }
    let narrow = Rules::new(spec)
        .map(Arc::new)
        .map_err(|e| rules_error(file, e))?;
    Ok(Compiled {
        rules: None,
        two_player: Some(narrow),
    })
}

/// Compiles a two-player variant on the narrow cell sets only (tests and tools that
/// never hold a game: perft, tables); a variant of more sides is refused.
pub fn compile_two_player(spec: VariantSpec, file: &str) -> Result<Arc<Rules>, VariantError> {
    if spec.sides.len() > 2 {
        return Err(problem(
            file,
            "sides",
            format!(
                "{} sides: a game of more than two sides, not a two-player variant",
                spec.sides.len()
            ),
        ));
    }
    Rules::new(&spec)
        .map(Arc::new)
        .map_err(|e| rules_error(file, e))
}

/// A built-in variant's spec, compiled.
fn compile_builtin(b: &BuiltinVariant) -> Result<CatalogEntry, VariantError> {
    let file = format!("variants/{}", b.file);
    let spec = b.load()?;
    let compiled = compile(&spec, &file)?;
    Ok(CatalogEntry::new(spec, compiled, VariantSource::Builtin))
}

/// The built-in variant `id`, as [`Catalog::builtin`] has it.
fn builtin(id: &str) -> Option<CatalogEntry> {
    let b = BUILTIN_VARIANTS.iter().find(|b| b.id == id)?;
    compile_builtin(b).ok()
}

impl CatalogEntry {
    fn new(spec: VariantSpec, compiled: Compiled, source: VariantSource) -> CatalogEntry {
        let wide = OnceLock::new();
        if let Some(rules) = compiled.rules {
            let _ = wide.set(rules);
        }
        CatalogEntry {
            spec,
            wide: Arc::new(wide),
            two_player: compiled.two_player,
            source,
        }
    }
}

fn problem(file: &str, path: &str, message: String) -> VariantError {
    VariantError::Invalid {
        file: file.to_string(),
        problems: vec![Problem {
            line: None,
            column: None,
            path: path.into(),
            message,
            hint: None,
        }],
    }
}

fn rules_error(file: &str, e: crate::rules::RulesError) -> VariantError {
    VariantError::Invalid {
        file: file.to_string(),
        problems: e
            .problems
            .into_iter()
            .map(|message| Problem {
                line: None,
                column: None,
                path: String::new(),
                message,
                hint: None,
            })
            .collect(),
    }
}

impl Catalog {
    /// The built-in variants only.
    pub fn builtin() -> Catalog {
        let mut c = Catalog::default();
        for b in &BUILTIN_VARIANTS {
            match compile_builtin(b) {
                Ok(entry) => c.entries.push(entry),
                Err(e) => c.errors.push(e),
            }
        }
        c
    }

    /// Adds the variant of the file at `path`, read as `text` (the files crate reads
    /// it: `hexchess_files::variants`). A file whose id is already known replaces that
    /// variant, unless it is the very text of a built-in (the project's own `variants/`
    /// folder). The file's earlier errors go; a new one is kept in the catalog.
    pub fn add_file(&mut self, path: &Path, text: &str) -> Result<&CatalogEntry, VariantError> {
        let file = path.display().to_string();
        self.errors.retain(|e| e.file() != file);
        // The same text is checked and compared with the built-ins.
        let loaded = parse_variant(text, &file).and_then(|spec| {
            let compiled = compile(&spec, &file)?;
            Ok((spec, compiled))
        });
        let (spec, compiled) = match loaded {
            Ok(x) => x,
            Err(e) => {
                self.errors.push(e.clone());
                return Err(e);
            }
        };
        // A copy saved with a byte order mark (Notepad) is still the built-in's text.
        let is_builtin_copy = BUILTIN_VARIANTS
            .iter()
            .any(|b| b.id == spec.id && b.source == crate::text::strip_bom(text));
        let source = if is_builtin_copy {
            VariantSource::Builtin
        } else {
            VariantSource::File(path.to_path_buf())
        };
        let entry = CatalogEntry::new(spec, compiled, source);
        let index = match self.entries.iter().position(|e| e.id() == entry.id()) {
            Some(i) => {
                if !is_builtin_copy {
                    self.entries[i] = entry;
                }
                i
            }
            None => {
                self.entries.push(entry);
                self.entries.len() - 1
            }
        };
        Ok(&self.entries[index])
    }

    /// Keeps the error of a variant file that could not be read, in place of the
    /// file's earlier errors (its variants, read before, stay).
    pub fn refuse_file(&mut self, error: VariantError) {
        self.errors.retain(|e| e.file() != error.file());
        self.errors.push(error);
    }

    /// Forgets what a file that is gone gave: its variants (a built-in it replaced
    /// comes back) and its errors. Returns the ids it gave, for the menu to tell.
    pub fn forget_file(&mut self, path: &Path) -> Vec<String> {
        let file = path.display().to_string();
        self.errors.retain(|e| e.file() != file);
        let source = VariantSource::File(path.to_path_buf());
        let mut gone = Vec::new();
        let mut i = 0;
        while i < self.entries.len() {
            if self.entries[i].source != source {
                i += 1;
                continue;
            }
            gone.push(self.entries[i].id().to_string());
            match builtin(self.entries[i].id()) {
                Some(entry) => {
                    self.entries[i] = entry;
                    i += 1;
                }
                None => {
                    self.entries.remove(i);
                }
            }
        }
        gone
    }

    /// Every variant, two-player ones and games of more sides, in menu order.
    pub fn entries(&self) -> &[CatalogEntry] {
        &self.entries
    }

    /// The files that did not load, each with every problem it has.
    pub fn errors(&self) -> &[VariantError] {
        &self.errors
    }

    /// The variant of this id.
    pub fn get(&self, id: &str) -> Option<&CatalogEntry> {
        self.entries.iter().find(|e| e.id() == id)
    }

    /// The ids, in menu order.
    pub fn ids(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.id()).collect()
    }
}
