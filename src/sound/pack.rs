//! The player's own sounds: `move.wav`, `capture.wav`, `check.wav` and `end.wav` in a
//! `sounds` folder of the per-user data folder replace the game's. Each is read and
//! checked here (Bevy's decoder stops the program on a file it cannot read), mixed down
//! to mono, and written again in the one form the game plays; a file that cannot be
//! used is named with what is wrong, and the game's own sound plays instead.

use std::path::{Path, PathBuf};

use super::Cue;

/// The longest sound taken: a cue is a cue, not music.
pub const MAX_SECONDS: u32 = 10;

/// A sound read from a file: mono samples in -1..1 and their rate.
#[derive(Clone, Debug, PartialEq)]
pub struct Sound {
    pub rate: u32,
    pub samples: Vec<f32>,
}

/// The file a cue's own sound is looked for in, in `dir`.
pub fn file_for(dir: &Path, cue: Cue) -> PathBuf {
    let name = match cue {
        Cue::Move => "move",
        Cue::Capture => "capture",
        Cue::Check => "check",
        Cue::GameEnd => "end",
        Cue::Offer => "offer",
    };
    dir.join(format!("{name}.wav"))
}

/// The largest sound file read.
const MAX_WAV_BYTES: u64 = 80 * 1024 * 1024;

/// The sound in `path`: `None` when there is no such file, an error naming the file
/// when it is not a WAV file the game can play.
pub fn read(files: &hexchess_files::Files, path: &Path) -> Result<Option<Sound>, String> {
    let name = path.display();
    // Only a regular file is opened (a FIFO would wait forever), and no larger than ten
    // seconds of the widest WAV (192 kHz, 8 channels of 32 bits) with room for chunks.
    let bytes = match files.read_bytes(path, MAX_WAV_BYTES) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let reader = match hound::WavReader::new(std::io::Cursor::new(bytes)) {
        Ok(r) => r,
        Err(e) => return Err(format!("{name}: not a WAV file the game can read ({e})")),
    };
    let spec = reader.spec();
    if !(8_000..=192_000).contains(&spec.sample_rate) {
        return Err(format!(
            "{name}: {} samples a second (8000 to 192000 are played)",
            spec.sample_rate
        ));
    }
    if reader.duration() > MAX_SECONDS * spec.sample_rate {
        return Err(format!(
            "{name}: {:.1} s long (a sound may last {MAX_SECONDS} s)",
            reader.duration() as f32 / spec.sample_rate as f32
        ));
    }
    let interleaved = samples(reader).map_err(|e| format!("{name}: {e}"))?;
    let channels = usize::from(spec.channels.max(1));
    let samples = interleaved
        .chunks(channels)
        .map(|frame| frame.iter().sum::<f32>() / channels as f32)
        .collect();
    Ok(Some(Sound {
        rate: spec.sample_rate,
        samples,
    }))
}

/// Every sample as -1..1, whatever the file stores.
fn samples(reader: hound::WavReader<impl std::io::Read>) -> hound::Result<Vec<f32>> {
    let spec = reader.spec();
    match spec.sample_format {
        hound::SampleFormat::Float => reader.into_samples::<f32>().collect(),
        hound::SampleFormat::Int => {
            let full = (1_i64 << (spec.bits_per_sample.clamp(1, 32) - 1)) as f32;
            reader
                .into_samples::<i32>()
                .map(|s| s.map(|v| v as f32 / full))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hexchess-sounds-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(path: &Path, spec: hound::WavSpec, frames: usize, value: impl Fn(usize, u16) -> i32) {
        let mut w = hound::WavWriter::create(path, spec).unwrap();
        for i in 0..frames {
            for c in 0..spec.channels {
                w.write_sample(value(i, c)).unwrap();
            }
        }
        w.finalize().unwrap();
    }

    #[test]
    fn a_stereo_24_bit_file_is_read_as_mono_at_its_rate() {
        let dir = folder("stereo");
        let path = file_for(&dir, Cue::Capture);
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: 48_000,
            bits_per_sample: 24,
            sample_format: hound::SampleFormat::Int,
        };
        // Left at half scale, right silent: the mix is a quarter.
        write(&path, spec, 4_800, |_, c| if c == 0 { 1 << 22 } else { 0 });
        let sound = read(&hexchess_files::Files::disk(), &path)
            .unwrap()
            .expect("a sound");
        assert_eq!((sound.rate, sound.samples.len()), (48_000, 4_800));
        assert!(sound.samples.iter().all(|s| (s - 0.25).abs() < 1e-6));
    }

    #[test]
    fn a_missing_file_is_nothing_and_a_bad_one_is_named() {
        let dir = folder("bad");
        assert_eq!(
            read(&hexchess_files::Files::disk(), &file_for(&dir, Cue::Move)).unwrap(),
            None
        );
        let path = file_for(&dir, Cue::Check);
        std::fs::write(&path, b"RIFF....not a wave at all").unwrap();
        let e = read(&hexchess_files::Files::disk(), &path).unwrap_err();
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        assert!(e.contains("not a WAV file"), "{e}");
        // Too long to be a cue.
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: 8_000,
            bits_per_sample: 8,
            sample_format: hound::SampleFormat::Int,
        };
        let long = file_for(&dir, Cue::GameEnd);
        write(&long, spec, 8_000 * 11, |_, _| 0);
        let e = read(&hexchess_files::Files::disk(), &long).unwrap_err();
        assert!(e.contains("11.0 s long"), "{e}");
    }
}
