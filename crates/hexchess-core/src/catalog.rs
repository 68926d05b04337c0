//! The variants a program can play: the built-ins plus every `*.ron` in the variants
//! folders, with the errors of the files that did not load.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::bitboard::WideBitboard;
use crate::rules::Rules;
use crate::variant::builtin::BuiltinVariant;
use crate::variant::{
    BUILTIN_VARIANTS, Problem, VariantError, VariantSpec, parse_variant, read_variant_text,
};

/// Where a variant came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantSource {
    Builtin,
    File(PathBuf),
}

/// A playable variant.
#[derive(Clone, Debug)]
pub struct CatalogEntry {
    pub spec: VariantSpec,
    pub rules: Arc<Rules>,
    pub source: VariantSource,
}

impl CatalogEntry {
    pub fn id(&self) -> &str {
        &self.spec.id
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }
}

/// A playable game of more than two sides (3-player Hexachess, 4-player team
/// Hexachess): compiled with the wide cell sets, played through
/// [`crate::multi::Game`].
#[derive(Clone, Debug)]
pub struct MultiEntry {
    pub spec: VariantSpec,
    pub rules: Arc<Rules<WideBitboard>>,
    pub source: VariantSource,
}

impl MultiEntry {
    pub fn id(&self) -> &str {
        &self.spec.id
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }
}

/// Loaded variants and load errors.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    entries: Vec<CatalogEntry>,
    multi: Vec<MultiEntry>,
    errors: Vec<VariantError>,
}

/// A compiled variant: two sides (the narrow, fast rules every two-player program
/// plays) or more.
enum Compiled {
    Two(Arc<Rules>),
    More(Arc<Rules<WideBitboard>>),
}

/// Checks and compiles a two-player variant, turning rule-compilation problems into a
/// variant error. A variant of more sides is refused here: see [`compile_multi`].
pub fn compile(spec: VariantSpec, file: &str) -> Result<Arc<Rules>, VariantError> {
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

/// Compiles a variant of more than two sides with the wide cell sets.
pub fn compile_multi(
    spec: &VariantSpec,
    file: &str,
) -> Result<Arc<Rules<WideBitboard>>, VariantError> {
    Rules::<WideBitboard>::compile(spec)
        .map(Arc::new)
        .map_err(|e| rules_error(file, e))
}

fn compile_any(spec: &VariantSpec, file: &str) -> Result<Compiled, VariantError> {
    if spec.sides.len() > 2 {
        compile_multi(spec, file).map(Compiled::More)
    } else {
        compile(spec.clone(), file).map(Compiled::Two)
    }
}

/// A built-in variant's spec, compiled.
fn compile_builtin(b: &BuiltinVariant) -> Result<(VariantSpec, Compiled), VariantError> {
    let file = format!("variants/{}", b.file);
    b.load()
        .and_then(|spec| compile_any(&spec, &file).map(|r| (spec, r)))
}

/// The built-in two-player variant `id`, as [`Catalog::builtin`] has it.
fn builtin_two(id: &str) -> Option<CatalogEntry> {
    let b = BUILTIN_VARIANTS.iter().find(|b| b.id == id)?;
    match compile_builtin(b).ok()? {
        (spec, Compiled::Two(rules)) => Some(CatalogEntry {
            spec,
            rules,
            source: VariantSource::Builtin,
        }),
        _ => None,
    }
}

/// The built-in game of more sides `id`.
fn builtin_multi(id: &str) -> Option<MultiEntry> {
    let b = BUILTIN_VARIANTS.iter().find(|b| b.id == id)?;
    match compile_builtin(b).ok()? {
        (spec, Compiled::More(rules)) => Some(MultiEntry {
            spec,
            rules,
            source: VariantSource::Builtin,
        }),
        _ => None,
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

/// The per-user data folder of hexchess (see [`crate::folders::data_dir`]); kept here
/// for the callers that found it here first.
pub fn user_data_dir() -> Option<PathBuf> {
    crate::folders::data_dir()
}

impl Catalog {
    /// The built-in variants only.
    pub fn builtin() -> Catalog {
        let mut c = Catalog::default();
        for b in &BUILTIN_VARIANTS {
            match compile_builtin(b) {
                Ok((spec, Compiled::Two(rules))) => c.entries.push(CatalogEntry {
                    spec,
                    rules,
                    source: VariantSource::Builtin,
                }),
                Ok((spec, Compiled::More(rules))) => c.multi.push(MultiEntry {
                    spec,
                    rules,
                    source: VariantSource::Builtin,
                }),
                Err(e) => c.errors.push(e),
            }
        }
        c
    }

    /// Built-ins plus the files in the usual folders (see [`Catalog::default_dirs`]).
    pub fn load_default() -> Catalog {
        let mut c = Catalog::builtin();
        for dir in Catalog::default_dirs() {
            c.load_dir(&dir);
        }
        c
    }

    /// `variants/` in the working directory and next to the executable, and the
    /// per-user folder's (`~/.local/share/hexchess/variants` on Linux; see
    /// [`crate::folders::data_dir`]).
    pub fn default_dirs() -> Vec<PathBuf> {
        let mut dirs = vec![PathBuf::from("variants")];
        if let Ok(exe) = std::env::current_exe()
            && let Some(parent) = exe.parent()
        {
            dirs.push(parent.join("variants"));
        }
        if let Some(data) = user_data_dir() {
            dirs.push(data.join("variants"));
        }
        // The same folder reached twice (running from the project root) loads once.
        let mut seen = Vec::new();
        dirs.retain(|d| {
            let key = d.canonicalize().unwrap_or_else(|_| d.clone());
            if seen.contains(&key) {
                false
            } else {
                seen.push(key);
                true
            }
        });
        dirs
    }

    /// Loads every `*.ron` of a folder, in name order. A missing folder is not an error.
    pub fn load_dir(&mut self, dir: &Path) {
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        let mut files: Vec<PathBuf> = read
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        files.sort();
        for f in files {
            // Errors are kept in the catalog; the other variants stay playable.
            let _ = self.load_file(&f);
        }
    }

    /// Loads one file. A file whose id is already known replaces that variant, unless it
    /// is the very text of a built-in (the project's own `variants/` folder). A game of
    /// more sides goes to [`Catalog::multiplayer`]; its entry is returned as `None`.
    pub fn load_file(&mut self, path: &Path) -> Result<Option<&CatalogEntry>, VariantError> {
        let file = path.display().to_string();
        self.errors.retain(|e| e.file() != file);
        // Read once: the same text is checked and compared with the built-ins.
        let loaded = read_variant_text(path).and_then(|text| {
            let spec = parse_variant(&text, &file)?;
            let compiled = compile_any(&spec, &file)?;
            Ok((text, spec, compiled))
        });
        let (text, spec, compiled) = match loaded {
            Ok(x) => x,
            Err(e) => {
                self.errors.push(e.clone());
                return Err(e);
            }
        };
        let is_builtin_copy = BUILTIN_VARIANTS
            .iter()
            .any(|b| b.id == spec.id && b.source == text);
        let source = if is_builtin_copy {
            VariantSource::Builtin
        } else {
            VariantSource::File(path.to_path_buf())
        };
        let rules = match compiled {
            Compiled::Two(rules) => rules,
            Compiled::More(rules) => {
                let entry = MultiEntry {
                    spec,
                    rules,
                    source,
                };
                match self.multi.iter().position(|e| e.id() == entry.id()) {
                    Some(i) if !is_builtin_copy => self.multi[i] = entry,
                    Some(_) => {}
                    None => self.multi.push(entry),
                }
                return Ok(None);
            }
        };
        let entry = CatalogEntry {
            spec,
            rules,
            source,
        };
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
        Ok(Some(&self.entries[index]))
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
            match builtin_two(self.entries[i].id()) {
                Some(entry) => {
                    self.entries[i] = entry;
                    i += 1;
                }
                None => {
                    self.entries.remove(i);
                }
            }
        }
        let mut i = 0;
        while i < self.multi.len() {
            if self.multi[i].source != source {
                i += 1;
                continue;
            }
            gone.push(self.multi[i].id().to_string());
            match builtin_multi(self.multi[i].id()) {
                Some(entry) => {
                    self.multi[i] = entry;
                    i += 1;
                }
                None => {
                    self.multi.remove(i);
                }
            }
        }
        gone
    }

    /// The two-player variants.
    pub fn entries(&self) -> &[CatalogEntry] {
        &self.entries
    }

    /// The games of more than two sides.
    pub fn multiplayer(&self) -> &[MultiEntry] {
        &self.multi
    }

    /// A game of more sides by id.
    pub fn get_multi(&self, id: &str) -> Option<&MultiEntry> {
        self.multi.iter().find(|e| e.id() == id)
    }

    pub fn errors(&self) -> &[VariantError] {
        &self.errors
    }

    pub fn get(&self, id: &str) -> Option<&CatalogEntry> {
        self.entries.iter().find(|e| e.id() == id)
    }

    /// The ids, in menu order.
    pub fn ids(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.id()).collect()
    }
}
