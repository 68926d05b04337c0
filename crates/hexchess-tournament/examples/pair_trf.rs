//! Pairs the next round of a TRF file by the Dutch system and prints it as the
//! pairing programs do (for trying the pairing by hand; the server's
//! `hexchess-server pair-swiss FILE.trf` is the same call).

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: pair_trf FILE.trf");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let tournament = match hexchess_tournament::trf::read(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    match hexchess_tournament::swiss::pair_next_round(&tournament) {
        Ok(p) => print!("{}", p.to_text()),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
