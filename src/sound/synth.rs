//! The game's sounds, made when the game starts from struck partials and a little
//! noise instead of shipped as recordings: nothing to license, nothing to load from disk
//! that could be missing, and each sound can be read (and changed) as numbers here.
//!
//! A wooden *tock* for a move, a heavier double knock for a capture, two rising bell
//! notes for check and a bell arpeggio for the end of the game: the more a sound means,
//! the longer and more tonal it is, so that a player who is not looking can still tell
//! them apart.

use super::Cue;

/// Samples a second (CD rate: every platform's output takes it without resampling
/// artefacts).
pub const RATE: u32 = 44_100;

/// The loudest sample of every sound, leaving headroom when two overlap.
pub const PEAK: f32 = 0.8;

/// One partial of a struck sound: its pitch, loudness and how fast it dies away.
#[derive(Clone, Copy, Debug)]
struct Partial {
    hz: f32,
    amplitude: f32,
    /// Time for the partial to fall to 1/e, in seconds.
    decay: f32,
}

const fn partial(hz: f32, amplitude: f32, decay: f32) -> Partial {
    Partial {
        hz,
        amplitude,
        decay,
    }
}

/// A strike: partials and a burst of noise (the contact), starting together.
#[derive(Clone, Copy, Debug)]
struct Strike<'a> {
    partials: &'a [Partial],
    noise: f32,
    noise_decay: f32,
}

/// A piece set down on wood: a short mid-high tock.
const TOCK: Strike = Strike {
    partials: &[
        partial(640.0, 1.0, 0.018),
        partial(1310.0, 0.45, 0.010),
        partial(2230.0, 0.2, 0.006),
    ],
    noise: 0.35,
    noise_decay: 0.004,
};

/// A piece knocked off: lower, with more body and more contact noise.
const KNOCK: Strike = Strike {
    partials: &[
        partial(410.0, 1.0, 0.035),
        partial(960.0, 0.45, 0.016),
        partial(1750.0, 0.15, 0.008),
    ],
    noise: 0.55,
    noise_decay: 0.007,
};

/// A small bell's partials (the inharmonic ratios of a struck bar), for a note at `hz`.
fn bell(hz: f32, ring: f32) -> [Partial; 3] {
    [
        partial(hz, 1.0, ring),
        partial(hz * 2.76, 0.35, ring * 0.3),
        partial(hz * 5.40, 0.12, ring * 0.15),
    ]
}

/// How long each sound lasts, in seconds.
pub fn duration(cue: Cue) -> f32 {
    match cue {
        Cue::Move => 0.12,
        Cue::Capture => 0.22,
        Cue::Check => 0.6,
        Cue::GameEnd => 1.4,
        Cue::Offer => 0.7,
    }
}

/// The sound for `cue`, mono at [`RATE`], its loudest sample at [`PEAK`].
pub fn samples(cue: Cue) -> Vec<f32> {
    let mut out = vec![0.0; (duration(cue) * RATE as f32) as usize];
    let mut noise = Noise(0x9E37_79B9);
    match cue {
        Cue::Move => add_strike(&mut out, 0.0, TOCK, 1.0, &mut noise),
        Cue::Capture => {
            add_strike(&mut out, 0.0, KNOCK, 1.0, &mut noise);
            // The taken piece falling against the board, a moment later.
            add_strike(&mut out, 0.05, TOCK, 0.5, &mut noise);
        }
        Cue::Check => {
            // B5 then E6: a rising fourth, a warning rather than an ending.
            for (at, hz) in [(0.0, 987.8), (0.12, 1318.5)] {
                let partials = bell(hz, 0.16);
                add_strike(&mut out, at, tone(&partials), 1.0, &mut noise);
            }
        }
        Cue::GameEnd => {
            // C5 E5 G5 C6: a major arpeggio that settles.
            for (i, hz) in [523.3_f32, 659.3, 784.0, 1046.5].into_iter().enumerate() {
                let partials = bell(hz, 0.35);
                add_strike(&mut out, 0.1 * i as f32, tone(&partials), 1.0, &mut noise);
            }
        }
        Cue::Offer => {
            // G5 then D5: a falling fifth, a question put to the player, softer than
            // a check.
            for (at, hz) in [(0.0, 784.0_f32), (0.18, 587.3)] {
                let partials = bell(hz, 0.22);
                add_strike(&mut out, at, tone(&partials), 0.8, &mut noise);
            }
        }
    }
    normalise(&mut out);
    fade_out(&mut out, 0.01);
    out
}

/// A bell note has no contact noise.
fn tone(partials: &[Partial]) -> Strike<'_> {
    Strike {
        partials,
        noise: 0.0,
        noise_decay: 1.0,
    }
}

/// Adds `strike` at `gain` to `out` from `at` seconds. A millisecond's rise keeps the
/// start from clicking.
fn add_strike(out: &mut [f32], at: f32, strike: Strike, gain: f32, noise: &mut Noise) {
    let start = (at * RATE as f32) as usize;
    let attack = RATE as f32 * 0.001;
    for (i, sample) in out.iter_mut().skip(start).enumerate() {
        let t = i as f32 / RATE as f32;
        let rise = (i as f32 / attack).min(1.0);
        let mut v: f32 = strike
            .partials
            .iter()
            .map(|p| p.amplitude * (std::f32::consts::TAU * p.hz * t).sin() * (-t / p.decay).exp())
            .sum();
        if strike.noise > 0.0 {
            v += strike.noise * noise.next() * (-t / strike.noise_decay).exp();
        }
        *sample += gain * rise * v;
    }
}

/// Scales the sound so that its loudest sample is [`PEAK`].
fn normalise(out: &mut [f32]) {
    let loudest = out.iter().fold(0.0_f32, |m, s| m.max(s.abs()));
    if loudest > 0.0 {
        for s in out.iter_mut() {
            *s *= PEAK / loudest;
        }
    }
}

/// The last `seconds` fall linearly to silence: no click when the sound is cut.
fn fade_out(out: &mut [f32], seconds: f32) {
    let n = ((seconds * RATE as f32) as usize).min(out.len());
    let len = out.len();
    for (k, s) in out[len - n..].iter_mut().enumerate() {
        *s *= 1.0 - (k + 1) as f32 / n as f32;
    }
}

/// White noise from a fixed seed, so that every run makes the same sounds.
struct Noise(u32);

impl Noise {
    /// The next value in -1..1 (xorshift32).
    fn next(&mut self) -> f32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x as f32 / u32::MAX as f32 * 2.0 - 1.0
    }
}

/// The samples as a WAV file (16-bit PCM, mono, at [`RATE`]), the form the audio
/// decoder reads.
pub fn wav(samples: &[f32]) -> Vec<u8> {
    wav_at(samples, RATE)
}

/// The samples as a WAV file at `rate` samples a second.
pub fn wav_at(samples: &[f32], rate: u32) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16_u32.to_le_bytes()); // the format chunk's size
    out.extend_from_slice(&1_u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1_u16.to_le_bytes()); // channels
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes()); // bytes a second
    out.extend_from_slice(&2_u16.to_le_bytes()); // bytes a frame
    out.extend_from_slice(&16_u16.to_le_bytes()); // bits a sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        let v = (s.clamp(-1.0, 1.0) * i16::MAX as f32).round() as i16;
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rms(s: &[f32]) -> f32 {
        (s.iter().map(|x| x * x).sum::<f32>() / s.len().max(1) as f32).sqrt()
    }

    /// The share of the energy two one-pole low-pass filters at `hz` let through.
    fn low_share(s: &[f32], hz: f32) -> f32 {
        let a = 1.0 - (-std::f32::consts::TAU * hz / RATE as f32).exp();
        let pass = |s: &[f32]| -> Vec<f32> {
            let mut y = 0.0;
            s.iter()
                .map(|x| {
                    y += a * (x - y);
                    y
                })
                .collect()
        };
        (rms(&pass(&pass(s))) / rms(s)).powi(2)
    }

    /// The power of one frequency in `s` (Goertzel's filter).
    fn power_at(s: &[f32], hz: f32) -> f32 {
        let w = std::f32::consts::TAU * hz / RATE as f32;
        let c = 2.0 * w.cos();
        let (mut a, mut b) = (0.0_f32, 0.0_f32);
        for x in s {
            let y = x + c * a - b;
            b = a;
            a = y;
        }
        (a * a + b * b - c * a * b) / s.len() as f32
    }

    fn ms(t: f32) -> usize {
        (t * RATE as f32 / 1000.0) as usize
    }

    #[test]
    fn every_sound_is_audible_within_range_and_dies_away() {
        for cue in Cue::ALL {
            let s = samples(cue);
            assert_eq!(s.len(), (duration(cue) * RATE as f32) as usize, "{cue:?}");
            let loudest = s.iter().fold(0.0_f32, |m, x| m.max(x.abs()));
            assert!((loudest - PEAK).abs() < 1e-4, "{cue:?} peaks at {loudest}");
            let fifth = s.len() / 5;
            let (head, tail) = (rms(&s[..fifth]), rms(&s[s.len() - fifth..]));
            assert!(
                tail < head * 0.2,
                "{cue:?} does not die away: {head} then {tail}"
            );
            assert_eq!(*s.last().unwrap(), 0.0, "{cue:?} ends on silence");
        }
    }

    #[test]
    fn a_move_and_a_capture_sound_as_the_piece_lands() {
        for cue in [Cue::Move, Cue::Capture] {
            let s = samples(cue);
            let early = s[..ms(10.0)].iter().fold(0.0_f32, |m, x| m.max(x.abs()));
            assert!(early > 0.5 * PEAK, "{cue:?} is late: {early} in 10 ms");
            // The first sample is not a jump (the attack rises from nothing).
            assert!(s[0].abs() < 0.01, "{cue:?} clicks: {}", s[0]);
        }
    }

    #[test]
    fn the_sounds_differ_as_their_meanings_do() {
        let [mv, capture, check, end, offer] = Cue::ALL.map(samples);
        assert!(mv.len() < capture.len() && capture.len() < check.len());
        assert!(check.len() < end.len());
        // A capture is lower (more of its energy under 600 Hz) and heavier (more
        // energy in its first 60 ms at the same peak) than a move.
        let first = ms(60.0);
        let (c, m) = (&capture[..first], &mv[..first]);
        assert!(
            low_share(c, 600.0) > 1.5 * low_share(m, 600.0),
            "under 600 Hz: capture {} vs move {}",
            low_share(c, 600.0),
            low_share(m, 600.0)
        );
        assert!(rms(c) > rms(m), "capture {} vs move {}", rms(c), rms(m));
        // Check rises: its first note (B5) before its second (E6), then the second
        // louder than the first.
        let (a, b) = (&check[..ms(110.0)], &check[ms(130.0)..ms(300.0)]);
        assert!(power_at(a, 987.8) > 10.0 * power_at(a, 1318.5));
        assert!(power_at(b, 1318.5) > power_at(b, 987.8));
        // The ending is tonal: C5 is far stronger than a pitch outside its chord.
        let c = &end[..ms(90.0)];
        assert!(power_at(c, 523.3) > 20.0 * power_at(c, 740.0));
        // An offer falls where a check rises: G5 first, then D5 the stronger.
        let (g, d) = (&offer[..ms(170.0)], &offer[ms(200.0)..ms(400.0)]);
        assert!(power_at(g, 784.0) > 10.0 * power_at(g, 587.3));
        assert!(power_at(d, 587.3) > power_at(d, 784.0));
        assert!(check.len() < offer.len() && offer.len() < end.len());
    }

    #[test]
    fn the_wav_reads_back_as_the_same_samples() {
        let s = samples(Cue::Capture);
        let bytes = wav(&s);
        let mut reader = hound::WavReader::new(std::io::Cursor::new(bytes)).unwrap();
        let spec = reader.spec();
        assert_eq!(
            (spec.channels, spec.sample_rate, spec.bits_per_sample),
            (1, RATE, 16)
        );
        let back: Vec<i16> = reader.samples::<i16>().map(Result::unwrap).collect();
        assert_eq!(back.len(), s.len());
        for (x, y) in s.iter().zip(&back) {
            assert!((x - *y as f32 / i16::MAX as f32).abs() <= 1.0 / i16::MAX as f32);
        }
    }
}
