//! The `hexchess-engine` binary as scripts and GUIs use it.

use std::io::Write;
use std::process::{Command, Stdio};

fn engine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hexchess-engine"))
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.output().expect("the engine runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn one_shot_perft_prints_the_total_alone_on_the_last_line() {
    let out = stdout_of(engine().args(["perft", "--variant", "glinski", "--depth", "3"]));
    assert_eq!(out.lines().last(), Some("137858"));
    let out = stdout_of(engine().args([
        "perft",
        "--variant",
        "glinski",
        "--depth",
        "2",
        "--moves",
        "i2i4",
        "d9g9",
        "i4i5",
        "h7h5",
    ]));
    assert_eq!(out.lines().last(), Some("2538"));
    let out = stdout_of(engine().args([
        "perft",
        "--variant",
        "mccooey",
        "--depth",
        "2",
        "--divide",
        "--fen",
        "6/7/P6p/RP5pr/QNP2p2nq/BBBP2p1bbb/KNP5nk/R5P1r/1P5p/7/6 w - 0 5",
    ]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"1708"));
    assert_eq!(lines.len(), 47, "46 root moves and the total");
}

#[test]
fn protocol_session_survives_bad_input() {
    let mut child = engine()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let script = "uci\n\
        setoption name UCI_Variant value grand\n\
        position fen not/a/fen w - 0 1\n\
        position startpos moves f5f7\n\
        position startpos moves e5e6\n\
        isready\n\
        go perft 1\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let errors: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 2, "{text}");
    assert!(errors[0].contains("bad FEN"), "{text}");
    assert!(errors[1].contains("f5f7"), "{text}");
    assert!(text.contains("\nreadyok\n"), "{text}");
    // The count runs on its own thread; the end of the input waits for it (a `quit`
    // would stop it).
    assert!(text.trim_end().ends_with("Nodes searched: 91"), "{text}");
}

#[test]
fn check_reports_problems_with_positions() {
    let dir = std::env::temp_dir().join(format!("hexchess-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.ron");
    let bad = dir.join("bad.ron");
    let source = include_str!("../../../variants/glinski.ron");
    std::fs::write(&good, source.replace("\"glinski\"", "\"mine\"")).unwrap();
    std::fs::write(&bad, source.replace("\"f1\", \"f2\"", "\"f1\", \"q2\"")).unwrap();
    let out = engine().arg("check").arg(&good).arg(&bad).output().unwrap();
    assert!(!out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("good.ron: ok (mine"), "{text}");
    assert!(text.contains("cell \"q2\" is not on the board"), "{text}");
    let line = source
        .lines()
        .position(|l| l.contains("\"f1\", \"f2\""))
        .unwrap()
        + 1;
    assert!(text.contains(&format!("bad.ron:{line}:")), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_accepts_every_shipped_file_and_a_copy_of_a_game_of_more_sides() {
    let shipped: Vec<std::path::PathBuf> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
    assert_eq!(shipped.len(), 12, "{shipped:?}");
    let out = engine().arg("check").args(&shipped).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(
            "hexachess-3.ron: ok (hexachess-3 \"3-player Hexachess\", 217 cells, 3 sides)"
        ),
        "{text}"
    );
    assert!(text.contains("hexachess-4.ron: ok (hexachess-4"), "{text}");
    // A modder's copy with its id changed is a variant like any other.
    let dir = std::env::temp_dir().join(format!("hexchess-check3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("my-three.ron");
    let source = include_str!("../../../variants/hexachess-3.ron");
    std::fs::write(&copy, source.replace("\"hexachess-3\"", "\"my-three\"")).unwrap();
    let out = engine().arg("check").arg(&copy).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("ok (my-three"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn variants_lists_every_shipped_variant_with_its_sides() {
    let text = stdout_of(
        engine()
            .arg("variants")
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")),
    );
    let listed: Vec<(&str, &str)> = text
        .lines()
        .filter_map(|l| {
            let id = l.split_whitespace().next()?;
            let sides = l.split(" sides").next()?.rsplit(' ').next()?;
            Some((id, sides))
        })
        .collect();
    for (id, sides) in [
        ("glinski", "2"),
        ("mccooey", "2"),
        ("grand", "2"),
        ("standard", "2"),
        ("standard-short", "2"),
        ("pre-hexachess", "2"),
        ("screen-hexachess", "2"),
        ("hexachess-3", "3"),
        ("hexachess-4", "4"),
        ("fairy", "2"),
        ("mini", "2"),
        ("shafran", "2"),
    ] {
        assert!(
            listed.contains(&(id, sides)),
            "{id} with {sides} sides: {text}"
        );
    }
}

/// The pentanomial counts and the LOS (in percent) of a match's `Ptnml(0-2)` line.
fn pair_line(out: &str) -> ([usize; 5], f64) {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("Ptnml(0-2): ["))
        .unwrap_or_else(|| panic!("no Ptnml line in:\n{out}"));
    let (counts, rest) = line.split_once(']').unwrap();
    let counts: Vec<usize> = counts.split(", ").map(|c| c.parse().unwrap()).collect();
    let los = rest
        .split_once("LOS: ")
        .and_then(|(_, l)| l.strip_suffix(" %"))
        .and_then(|l| l.parse().ok())
        .unwrap_or_else(|| panic!("no LOS in {line}"));
    (counts.try_into().unwrap(), los)
}

/// A McCooey match of the full engine ("full") against itself counting material one ply
/// deep ("material"): the rest of the arguments to add.
fn full_against_material() -> Command {
    let exe = env!("CARGO_BIN_EXE_hexchess-engine");
    let mut cmd = engine();
    cmd.args([
        "match",
        "--engine1",
        exe,
        "--engine2",
        exe,
        "--name1",
        "full",
        "--name2",
        "material",
        "--option2",
        "Eval=Material",
        "--option2",
        "MaxDepth=1",
        "--variant",
        "mccooey",
    ]);
    cmd
}

#[test]
fn a_short_match_plays_both_colours_and_writes_records() {
    let dir = std::env::temp_dir().join(format!("hexchess-match-{}", std::process::id()));
    let out = stdout_of(full_against_material().args([
        "--games",
        "2",
        "--movetime",
        "20",
        "--max-plies",
        "60",
        "--out",
        dir.to_str().unwrap(),
    ]));
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game")).collect();
    assert_eq!(games.len(), 2, "{out}");
    assert!(
        games.iter().any(|g| g.contains(": full - material")),
        "{out}"
    );
    assert!(
        games.iter().any(|g| g.contains(": material - full")),
        "{out}"
    );
    assert!(out.contains("Final: full vs material: 2 games"), "{out}");
    // Two games of one opening: one pair, its Elo's margin unknown from one pair.
    let (pentanomial, _) = pair_line(&out);
    assert_eq!(pentanomial.iter().sum::<usize>(), 1, "{out}");
    assert!(
        out.contains("pair Elo ") && out.contains("+/- inf"),
        "{out}"
    );
    let catalog = hexchess_core::Catalog::builtin();
    for i in 1..=2 {
        let text = std::fs::read_to_string(dir.join(format!("game-000{i}.txt"))).unwrap();
        let record = hexchess_core::pgn::read_games(&text).remove(0).unwrap();
        assert_eq!(record.tag("Variant"), Some("mccooey"));
        let end = record
            .replay_main_line(&catalog)
            .expect("every recorded move is legal");
        assert!(end.moves().count() >= 4);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_sprt_match_stops_once_the_games_decide_it() {
    // The full engine against a one-ply material counter: far apart, so the test
    // settles as soon as it may (ten pairs) and the match stops well short of its 60.
    let out = stdout_of(full_against_material().args([
        "--games",
        "60",
        "--movetime",
        "10",
        "--max-plies",
        "80",
        "--concurrency",
        "2",
        "--sprt",
        "0,200",
    ]));
    let played = out.lines().filter(|l| l.starts_with("game")).count();
    let verdict = out.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("SPRT elo0 0 elo1 200 alpha 0.05 beta 0.05: H1 accepted (elo1) after "),
        "{out}"
    );
    let at: usize = verdict
        .rsplit(' ')
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a game count");
    // At least ten pairs; after the decision only the games already under way are
    // finished: one per worker (each may have started its next before the tally saw
    // the deciding game).
    assert!((20..40).contains(&at), "{out}");
    assert!(played >= at && played <= at + 2, "{out}");
    assert!(
        out.contains(&format!("Final: full vs material: {played} games")),
        "{out}"
    );
    assert!(out.contains("LLR"), "{out}");
    // Games are handed out in order and every one started is finished, so the games
    // played are the first `played`: every pair among them is counted, once. A player
    // this much stronger is all but sure to be the stronger.
    let (pentanomial, los) = pair_line(&out);
    assert_eq!(pentanomial.iter().sum::<usize>(), played / 2, "{out}");
    assert!(los > 99.0, "{out}");
}

#[test]
fn a_bad_sprt_is_refused_with_the_reason() {
    let exe = env!("CARGO_BIN_EXE_hexchess-engine");
    for (sprt, why) in [("10,0", "must be below"), ("0,5,0.9,0.05", "error rate")] {
        let out = engine()
            .args(["match", "--engine1", exe, "--engine2", exe, "--sprt", sprt])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{sprt}: {err}");
    }
}

#[test]
fn a_game_an_engine_breaks_off_is_reported_not_dropped() {
    // The second engine's first process quits when first asked to move; every later
    // process is the real engine. The match goes on and names the broken game.
    let dir = std::env::temp_dir().join(format!("hexchess-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mark = dir.join("quit-once");
    let script = dir.join("quitter.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             if [ -e '{mark}' ]; then exec '{exe}'; fi\n\
             while read -r line; do\n\
               case \"$line\" in\n\
                 uci) echo 'id name quitter'; echo uciok ;;\n\
                 isready) echo readyok ;;\n\
                 go*) touch '{mark}'; exit 0 ;;\n\
               esac\n\
             done\n",
            mark = mark.display(),
            exe = env!("CARGO_BIN_EXE_hexchess-engine"),
        ),
    )
    .unwrap();
    let status = Command::new("chmod")
        .arg("+x")
        .arg(&script)
        .status()
        .unwrap();
    assert!(status.success());
    let out = stdout_of(engine().args([
        "match",
        "--engine1",
        env!("CARGO_BIN_EXE_hexchess-engine"),
        "--engine2",
        script.to_str().unwrap(),
        "--games",
        "2",
        "--movetime",
        "20",
        "--max-plies",
        "30",
        "--logs",
        dir.join("logs").to_str().unwrap(),
    ]));
    let failed: Vec<&str> = out.lines().filter(|l| l.starts_with("failed: ")).collect();
    assert_eq!(failed.len(), 1, "{out}");
    assert!(failed[0].starts_with("failed: game 1: engine2: "), "{out}");
    assert!(out.contains("Final: engine1 vs engine2: 1 games"), "{out}");
    let last = out.lines().find(|l| l.starts_with("Final: ")).unwrap();
    assert!(last.ends_with(", 1 failed"), "{out}");
    // The restarted engine's log goes on in the same file: two processes, two starts.
    let log = std::fs::read_to_string(dir.join("logs").join("engine2-1.stderr.log")).unwrap();
    assert_eq!(log.matches("--- starting: ").count(), 2, "{log}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Writes an executable shell script.
#[cfg(unix)]
fn write_script(path: &std::path::Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(unix)]
#[test]
fn what_an_engine_writes_to_stderr_lands_in_its_log() {
    // The second engine is the real one behind a script that first says hello on
    // stderr, with its argument (quoted, so one word with a space).
    let dir = std::env::temp_dir().join(format!("hexchess-logs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("hello.sh");
    write_script(
        &script,
        &format!(
            "#!/bin/sh\necho \"hello from $1\" >&2\nexec '{}'\n",
            env!("CARGO_BIN_EXE_hexchess-engine")
        ),
    );
    let out = stdout_of(engine().args([
        "match",
        "--engine1",
        env!("CARGO_BIN_EXE_hexchess-engine"),
        "--engine2",
        &format!("{} 'the wrapper'", script.display()),
        "--games",
        "2",
        "--movetime",
        "10",
        "--movetime2",
        "5",
        "--max-plies",
        "12",
        "--out",
        dir.to_str().unwrap(),
        "--log-io",
    ]));
    assert!(out.contains("Final: engine1 vs engine2: 2 games"), "{out}");
    // With --out and no --logs, the logs are kept in <out>/logs.
    let logs = dir.join("logs");
    let stderr = std::fs::read_to_string(logs.join("engine2-1.stderr.log")).unwrap();
    assert!(stderr.contains("hello from the wrapper\n"), "{stderr}");
    assert_eq!(stderr.matches("--- starting: ").count(), 1, "{stderr}");
    let io = std::fs::read_to_string(logs.join("engine2-1.io.log")).unwrap();
    assert!(io.contains(" > uci\n") && io.contains(" < uciok\n"), "{io}");
    assert!(io.contains(" < bestmove "), "{io}");
    assert!(logs.join("engine1-1.stderr.log").exists());
    // Time odds: the first engine plays at the match's 10 ms a move, the second at its
    // own 5.
    let engine1_io = std::fs::read_to_string(logs.join("engine1-1.io.log")).unwrap();
    assert_eq!(go_lines(&engine1_io), ["go movetime 10"], "{engine1_io}");
    assert_eq!(go_lines(&io), ["go movetime 5"], "{io}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The different `go` lines of a protocol log, in the order first sent.
fn go_lines(io_log: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = Vec::new();
    for l in io_log.lines() {
        if let Some(i) = l.find(" > go ") {
            let go = &l[i + 3..];
            if !lines.contains(&go) {
                lines.push(go);
            }
        }
    }
    lines
}

#[cfg(unix)]
#[test]
fn each_engine_keeps_its_own_clock_and_loses_on_it() {
    // The second engine answers everything but `go`: on its own clock of 50 ms it loses
    // every game on time, and is told both clocks in its `go` lines, the first engine's
    // (on 10 ms a move) as 10 ms.
    let dir = std::env::temp_dir().join(format!("hexchess-odds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("mute.sh");
    write_script(
        &script,
        "#!/bin/sh\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             uci) echo 'id name mute'; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n",
    );
    let out = stdout_of(engine().args([
        "match",
        "--engine1",
        env!("CARGO_BIN_EXE_hexchess-engine"),
        "--engine2",
        script.to_str().unwrap(),
        "--movetime1",
        "10",
        "--tc2",
        "0.05",
        "--games",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--log-io",
    ]));
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game")).collect();
    assert_eq!(games.len(), 2, "{out}");
    assert!(games[0].contains("engine1 - engine2 1-0 (time)"), "{out}");
    assert!(games[1].contains("engine2 - engine1 0-1 (time)"), "{out}");
    assert!(
        out.contains("Final: engine1 vs engine2: 2 games, +2 =0 -0"),
        "{out}"
    );
    for i in 1..=2 {
        let text = std::fs::read_to_string(dir.join(format!("game-000{i}.txt"))).unwrap();
        let record = hexchess_core::pgn::read_games(&text).remove(0).unwrap();
        assert_eq!(record.tag("Termination"), Some("time forfeit"), "{text}");
    }
    let logs = dir.join("logs");
    let engine1 = std::fs::read_to_string(logs.join("engine1-1.io.log")).unwrap();
    assert_eq!(go_lines(&engine1), ["go movetime 10"], "{engine1}");
    // Black in game 1, White in game 2 (a new process, after the loss on time).
    let engine2 = std::fs::read_to_string(logs.join("engine2-1.io.log")).unwrap();
    assert_eq!(
        go_lines(&engine2),
        [
            "go wtime 10 btime 50 winc 0 binc 0",
            "go wtime 50 btime 10 winc 0 binc 0"
        ],
        "{engine2}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_time_control_is_refused_with_the_reason() {
    let exe = env!("CARGO_BIN_EXE_hexchess-engine");
    for (flag, tc, why) in [
        ("--tc", "10+x", "BASE+INC"),
        ("--tc1", "0+1", "must start above 0"),
        ("--tc2", "nan", "negative or endless"),
    ] {
        let out = engine()
            .args(["match", "--engine1", exe, "--engine2", exe, flag, tc])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{flag} {tc}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{flag} {tc}: {err}");
    }
}

#[test]
fn an_engine_that_cannot_start_or_log_is_refused_with_the_reason() {
    let exe = env!("CARGO_BIN_EXE_hexchess-engine");
    let refusal = |args: &[&str]| {
        let out = engine().arg("match").args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = refusal(&["--engine1", "/nonexistent/engine --x", "--engine2", exe]);
    assert!(
        err.contains("engine1: cannot start '/nonexistent/engine': "),
        "{err}"
    );
    let err = refusal(&["--engine1", exe, "--engine2", "engine 'open"]);
    assert!(
        err.contains("engine2: the ' opened at character 8"),
        "{err}"
    );
    let err = refusal(&["--engine1", exe, "--engine2", exe, "--log-io"]);
    assert!(err.contains("--log-io needs"), "{err}");
}

#[test]
fn bench_with_less_evaluation_searches_its_own_tree_and_says_so() {
    let nodes = |eval: &str| -> u64 {
        let out = stdout_of(engine().args(["bench", "search", "--depth", "2", "--eval", eval]));
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .unwrap_or_else(|| panic!("no node count in:\n{out}"));
        line.parse().expect("a count")
    };
    let full = nodes("full");
    assert!(full > 0);
    assert_ne!(full, nodes("material"));
    assert_ne!(full, nodes("placement"));
    // An evaluation it does not know is refused with the choices, not run.
    let out = engine()
        .args(["bench", "--eval", "mobility"])
        .output()
        .expect("the engine runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("full") && err.contains("placement"), "{err}");
    // Perft evaluates nothing: asking it for an evaluation is an error, not ignored.
    let out = engine()
        .args(["bench", "perft", "--depth", "1", "--eval", "material"])
        .output()
        .expect("the engine runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("perft does not evaluate"), "{err}");
}

/// The short soak CI runs: two fast games in every shipped variant (mods included, run
/// from the project root), then searches stopped at random moments with two threads.
#[test]
fn a_short_soak_passes_in_every_variant() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_hexchess-engine"))
        .current_dir(&root)
        .args([
            "soak",
            "--games",
            "2",
            "--nodes",
            "300",
            "--searches",
            "6",
            "--threads",
            "2",
        ])
        .output()
        .expect("the engine runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("no failures"), "{text}");
    for id in [
        "glinski", "mccooey", "grand", "standard", "fairy", "mini", "shafran",
    ] {
        assert!(
            text.contains(&format!("{id} game 2: ")),
            "{id} missing:\n{text}"
        );
    }
    assert!(text.contains("6 searches stopped"), "{text}");
}

#[test]
fn soak_refuses_an_unknown_variant() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexchess-engine"))
        .args(["soak", "--variant", "nosuch", "--games", "1"])
        .output()
        .expect("the engine runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant 'nosuch'"));
}

fn run_engine(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hexchess-engine"))
        .args(args)
        .output()
        .expect("the engine runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn tb_stats_and_probe_agree_on_the_longest_rook_mate() {
    let (ok, text, err) = run_engine(&["tb", "stats", "KRvK"]);
    assert!(ok, "{err}");
    assert!(
        text.contains("White to move: 488220 legal; mates 100.0000%"),
        "{text}"
    );
    let longest = text
        .lines()
        .find_map(|l| l.strip_prefix("longest mate: "))
        .expect("a longest mate");
    let (plies, fen) = longest.split_once(" plies, ").expect("plies and a FEN");
    let (ok, probe, err) = run_engine(&["tb", "probe", fen]);
    assert!(ok, "{err}");
    let first = probe.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "KRvK: is mated in {plies} plies; by the move rule a loss"
        )),
        "{probe}"
    );
    // Every move loses, none more slowly than the position says.
    for line in probe.lines().skip(1) {
        let d: u32 = line
            .split_whitespace()
            .nth(4)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(d <= plies.parse().unwrap(), "{line}");
    }
}

#[test]
fn tb_refuses_too_many_men_unknown_variants_and_bad_fens_clearly() {
    let (ok, _, err) = run_engine(&["tb", "stats", "KQRBvKR"]);
    assert!(!ok && err.contains("6 men; tables hold at most 5"), "{err}");
    let (ok, _, err) = run_engine(&["tb", "stats", "--variant", "nosuch", "KRvK"]);
    assert!(!ok && err.contains("unknown variant 'nosuch'"), "{err}");
    let (ok, _, err) = run_engine(&["tb", "probe", "K5/7 w - 0 1"]);
    assert!(!ok && err.contains("bad FEN"), "{err}");
}

#[test]
fn tb_json_gives_every_class_and_each_moves_value() {
    let (ok, text, err) = run_engine(&["tb", "stats", "KRvK", "--json"]);
    assert!(ok, "{err}");
    for key in [
        "\"white\": {\"win\": 1, \"stalemate_win\": 0, \"draw_perpetual\": 0",
        "\"draw_fortress\":",
        "\"stalemate_loss\":",
        "\"longest_mate_plies\": 40",
        "\"longest_mate_fen\": \"",
    ] {
        assert!(text.contains(key), "{key} in {text}");
    }
    // Black's fractions sum to one, and so do its results under the move rule.
    let black = text.split("\"black\": {").nth(1).unwrap();
    let (classes, rule) = black.split_once(", \"rule\": {").unwrap();
    let rule = rule.split('}').next().unwrap();
    let sum = |fields: &str| -> f64 {
        fields
            .split(',')
            .map(|kv| kv.split(':').nth(1).unwrap().trim().parse::<f64>().unwrap())
            .sum()
    };
    assert!((sum(classes) - 1.0).abs() < 1e-9, "{black}");
    assert!((sum(rule) - 1.0).abs() < 1e-9, "{rule}");
    for key in [
        "\"win\": 0, \"cursed_win\": 0, \"draw\": 0.1",
        "\"blessed_loss\": 0, \"loss\": 0.89",
    ] {
        assert!(rule.contains(key), "{key} in {rule}");
    }
    assert!(
        text.contains("\"rule_plies\": 100, \"longest_dtz_plies\": 40"),
        "{text}"
    );
    let fen = "K1k1R1/7/8/9/10/11/10/9/8/7/6 b - 0 1";
    let (ok, probe, err) = run_engine(&["tb", "probe", fen, "--json"]);
    assert!(ok, "{err}");
    assert!(
        probe.starts_with(
            "{\"value\": \"loss\", \"dtm_plies\": 40, \"rule_value\": \"loss\", \"dtz_plies\": 40, \"halfmove_clock\": 0, \"moves\": [{\"move\": \""
        ),
        "{probe}"
    );
    // With 70 plies counted, the rule draws before the mate: a blessed loss, for every
    // move too (each gives White a win of 39 plies with 29 left).
    let late = "K1k1R1/7/8/9/10/11/10/9/8/7/6 b - 70 1";
    let (ok, probe, err) = run_engine(&["tb", "probe", late, "--json"]);
    assert!(ok, "{err}");
    assert!(
        probe.starts_with("{\"value\": \"loss\", \"dtm_plies\": 40, \"rule_value\": \"blessed_loss\", \"dtz_plies\": 40, \"halfmove_clock\": 70"),
        "{probe}"
    );
    assert_eq!(
        probe.matches("\"rule_value\": \"blessed_loss\"").count(),
        probe.matches("\"move\":").count() + 1,
        "{probe}"
    );
}

#[test]
fn tb_generate_writes_a_table_file_where_asked() {
    let dir = std::env::temp_dir().join(format!("hexchess-cli-tb-{}", std::process::id()));
    let out = dir.join("tables").join("KQvK.htb");
    let (ok, text, err) = run_engine(&["tb", "generate", "KQvK", "--out", out.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(text.contains("written to"), "{text}");
    let bytes = std::fs::read(&out).expect("the file is there");
    assert_eq!(&bytes[..8], b"HEXCHTB1");
    // Without --out: the per-user data folder.
    let out = Command::new(env!("CARGO_BIN_EXE_hexchess-engine"))
        .args(["tb", "generate", "KvK"])
        .env("XDG_DATA_HOME", &dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(dir.join("hexchess/tables/glinski/KvK.htb").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two games, the first with a move that is not legal, the second with a queen left
/// where a queen takes it (4. Qb4).
const REVIEW_GAMES: &str = r#"[Event "broken"]
[White "A"]
[Black "B"]

1. e6 Ndf8 2. e6e9 *

[Event "good"]
[White "Hanger"]
[Black "Taker"]

1. e6 Ndf8 2. exf7 gxf7 3. Ndf4 Ng7 4. Qb4 Qxb4 *
"#;

#[test]
fn review_annotates_the_good_game_and_reports_the_broken_one_by_number() {
    let dir = std::env::temp_dir().join(format!("hexchess-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    std::fs::write(&file, REVIEW_GAMES).unwrap();
    let path = file.to_str().unwrap();
    let (ok, out, err) = run_engine(&["review", path, "--nodes", "20000"]);
    assert!(!ok, "a game not reviewed fails the command: {err}");
    assert!(err.contains("game 1, line 5"), "{err}");
    assert!(err.contains("e6e9"), "{err}");
    assert!(err.contains("(skipped)"), "{err}");
    assert!(
        err.contains("game 2 (Hanger - Taker): 8 plies reviewed"),
        "{err}"
    );
    assert!(
        err.contains("White: 0 inaccuracies, 0 mistakes, 1 blunder"),
        "{err}"
    );
    assert!(err.contains("error: 1 of 2 games not reviewed"), "{err}");
    // Only the good game is written, annotated.
    assert_eq!(out.matches("[Event ").count(), 1, "{out}");
    assert!(out.contains("[Event \"good\"]"), "{out}");
    assert!(
        out.contains("[Annotator \"hexchess-engine 0.1.0, 20000 nodes per position\"]"),
        "{out}"
    );
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("4. Qb4 $4 { -"), "{out}");
    assert!(words.contains("Blunder;"), "{out}");
    assert!(
        words.contains("was best } ( 4. Q"),
        "the better move is a queen's: {out}"
    );

    // The good game alone: it succeeds, and writes where asked.
    let written = dir.join("out.pgn");
    let (ok, out, err) = run_engine(&[
        "review",
        path,
        "--game",
        "2",
        "--depth",
        "4",
        "--out",
        written.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.is_empty(), "{out}");
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(
        text.contains("[Annotator \"hexchess-engine 0.1.0, depth 4\"]"),
        "{text}"
    );

    // A game number past the file's, and two budgets at once, are refused.
    let (ok, _, err) = run_engine(&["review", path, "--game", "3"]);
    assert!(!ok && err.contains("games 1 to 2"), "{err}");
    let (ok, _, err) = run_engine(&["review", path, "--nodes", "5", "--depth", "3"]);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `perft` and `diagram` set their game from the start or a FEN and the moves as the
/// protocol does: past a draw by rule (a perft counts every legal move, a diagram
/// shows any position), refusing a bad move by its number, for every number of sides.
#[test]
fn perft_and_diagram_play_their_moves_as_one_game() {
    let shuffle = ["d1c3", "d9f8", "c3d1", "f8d9"];
    let mut args = vec!["perft", "--depth", "1", "--moves"];
    args.extend(shuffle.iter().cycle().take(8));
    args.push("e4e5");
    let out = stdout_of(engine().args(&args));
    assert_eq!(out.lines().last(), Some("50"), "{out}");
    args[0] = "diagram";
    args.drain(1..3);
    assert!(stdout_of(engine().args(&args)).starts_with("<svg "));

    for (variant, moves, message) in [
        ("glinski", ["f5f6", "zz"], "move 2 'zz': 'zz' is not a move"),
        (
            "hexachess-3",
            ["e3e4", "e3e4"],
            "move 2 'e3e4': 'e3e4' is not a legal move here",
        ),
    ] {
        for command in ["perft", "diagram"] {
            let mut args = vec![command, "--variant", variant, "--moves", moves[0], moves[1]];
            if command == "perft" {
                args.extend(["--depth", "1"]);
            }
            let (ok, _, err) = run_engine(&args);
            assert!(!ok && err.contains(message), "{command} {variant}: {err}");
        }
    }
    // Whole turns of a game of three, counted in whole turns.
    let out = stdout_of(engine().args([
        "perft",
        "--variant",
        "hexachess-3",
        "--depth",
        "1",
        "--moves",
        "e3e4",
        "c13d13",
        "l13l12",
    ]));
    assert_eq!(out.lines().last(), Some("68"), "{out}");
}
