//! Secrets and names made at random: a player's secret (the only proof of who an
//! anonymous player is), game ids and challenge codes, and the hashes the database
//! keeps instead of secrets and passwords.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use blake2::{Blake2s256, Digest};

/// Random bits in a secret: more than the 128 a guess must never find.
const SECRET_BYTES: usize = 24;

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0; N];
    // The operating system's generator; without one no secret can be made safely.
    getrandom::fill(&mut bytes).expect("the operating system's random generator");
    bytes
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new secret: 192 random bits as 48 hex digits.
pub fn new_secret() -> String {
    hex(&random_bytes::<SECRET_BYTES>())
}

/// What the database keeps of a secret: its BLAKE2s hash (a secret of 192 random
/// bits needs no slow hash, unlike a password).
pub fn secret_hash(secret: &str) -> String {
    hex(&Blake2s256::digest(secret.as_bytes()))
}

/// Letters and digits no one confuses when reading a code aloud (no 0/O, 1/I/L).
const CODE_LETTERS: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// A new id of `len` characters of 31 unmistakable ones (about 4.95 bits each): game
/// ids of 12 (59 bits), challenge codes of 8 (40 bits, and guesses are rate-limited).
pub fn new_code(len: usize) -> String {
    let bytes = random_bytes::<32>();
    bytes
        .iter()
        .take(len.min(32))
        // 256 is not a multiple of 31: the first 8 letters come a little more often,
        // which costs a code under a tenth of a bit.
        .map(|b| CODE_LETTERS[usize::from(*b) % CODE_LETTERS.len()] as char)
        .collect()
}

/// A password's Argon2id hash (a PHC string with its own random salt).
pub fn hash_password(password: &str) -> Option<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .ok()
        .map(|h| h.to_string())
}

/// Whether `password` is the one `hash` was made from.
pub fn password_matches(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_random_and_kept_only_as_hashes() {
        let (a, b) = (new_secret(), new_secret());
        assert_eq!(a.len(), 48);
        assert!(a.len() * 4 >= 128);
        assert_ne!(a, b);
        assert_eq!(secret_hash(&a), secret_hash(&a));
        assert_ne!(secret_hash(&a), secret_hash(&b));
        assert!(!secret_hash(&a).contains(&a));
    }

    #[test]
    fn codes_use_only_unmistakable_letters() {
        let code = new_code(8);
        assert_eq!(code.len(), 8);
        assert!(code.bytes().all(|c| CODE_LETTERS.contains(&c)), "{code}");
        assert_ne!(new_code(12), new_code(12));
    }

    #[test]
    fn a_password_is_checked_against_its_argon2_hash() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(password_matches("correct horse", &hash));
        assert!(!password_matches("correct hors", &hash));
        assert!(!password_matches("correct horse", "not a hash"));
    }
}
