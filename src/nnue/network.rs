//! The quantised network and its file. Shape: [`INPUTS`] → [`HIDDEN`] per perspective
//! (the side to move's and the other's, one shared weight matrix), squared clipped ReLU,
//! → 1 output, from one of the network's output layers: with [`OUTPUT_BUCKETS`] of them, the
//! one of the position's count of pieces ([`output_bucket`]), so that the opening, the
//! middlegame and the ending each weigh the hidden units their own way. The hidden layer
//! works in `i16` scaled by [`QA`], the output weights in `i16` scaled by the network's own
//! output scale (a power of two from [`QB`] to [`MAX_QB`], the finest its largest weight
//! allows); the output is centipawns after [`SCALE`].
//!
//! A network either is the whole evaluation or is a correction added to the hand-written
//! one ([`Base`]): a correction starts from that evaluation's strength and learns what it
//! lacks, which takes far less data than learning chess from nothing.
//!
//! File (little-endian): the magic `VEILNNUE`, then `u32`s version, generation, inputs,
//! hidden, QA, QB, scale, base ([`Base`]), output layers (1 or [`OUTPUT_BUCKETS`]); a
//! 56-byte description (UTF-8, zero-padded); the feature weights (`i16`, input-major), the
//! feature biases (`i16`); then per output layer its weights (`i16`, the side to move's half
//! first) and its bias (`i32`); an FNV-1a checksum (`u64`) of everything before it. The
//! size follows from the hidden width and the output layers: [`file_size`]. A file narrower than
//! [`HIDDEN`] is read with its missing units at zero, which leaves its evaluation exactly as
//! it was (a unit with no weights adds nothing). Version 1 had no base (it was
//! [`Base::Nothing`]) and a 64-byte description in its place, and version 2 had one output
//! layer and a 60-byte description; both are still read.

use super::features::INPUTS;
use std::fmt;

/// Hidden units per perspective (the most a file may have; narrower files are padded).
pub const HIDDEN: usize = 128;
/// Scale of the feature weights and the hidden layer (1.0 = `QA`).
pub const QA: i32 = 255;
/// Scale of the output weights: the least a file may have (every file before the scale was
/// chosen per network had it).
pub const QB: i32 = 64;
/// The finest scale of the output weights a file may have.
pub const MAX_QB: i32 = 8192;
/// The largest output weight, in size, a network may have: then a hidden value (at most
/// `QA`) times an output weight fits an `i16`, which the dot product's fast path relies on.
/// Training clips weights well within it at the least scale (1.98 · `QB`), and the trainer
/// chooses the finest scale that keeps every weight within it.
pub const MAX_OUTPUT_WEIGHT: i16 = 128;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// Output layers of a bucketed network; a network has this many or one.
pub const OUTPUT_BUCKETS: usize = 8;
pub const VERSION: u32 = 3;
const MAGIC: &[u8; 8] = b"VEILNNUE";
/// The base, the output layers and the description together; version 1 used all of it for
/// the description, version 2 had no count of output layers.
const TAIL_SIZE: usize = 64;
const DESCRIPTION_SIZE: usize = TAIL_SIZE - 8;
const HEADER_SIZE: usize = 8 + 7 * 4 + TAIL_SIZE;

/// What the network's output is added to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Nothing: the network is the whole evaluation.
    Nothing = 0,
    /// The hand-written evaluation: the network is a correction to it.
    HandWritten = 1,
    /// The hand-written evaluation's material part alone (material, piece-square tables,
    /// the bishop pair, the tempo): the network is a correction that learns the rest, and the
    /// search saves the other terms' cost.
    Material = 2,
}

impl Base {
    fn from_u32(value: u32) -> Option<Base> {
        match value {
            0 => Some(Base::Nothing),
            1 => Some(Base::HandWritten),
            2 => Some(Base::Material),
            _ => None,
        }
    }

    /// The name `veil train --base` takes.
    pub fn name(self) -> &'static str {
        match self {
            Base::Nothing => "none",
            Base::HandWritten => "hand-written",
            Base::Material => "material",
        }
    }
}
/// Bytes of a network file with `hidden` units per perspective and `buckets` output layers.
pub const fn file_size(hidden: usize, buckets: usize) -> usize {
    HEADER_SIZE + 2 * INPUTS * hidden + 2 * hidden + buckets * (2 * 2 * hidden + 4) + 8
}

/// Bytes of the largest network file this engine reads.
pub const FILE_SIZE: usize = file_size(HIDDEN, OUTPUT_BUCKETS);

/// The output layer, of `buckets`, that scores a position with `pieces` pieces on the board
/// (covered pieces and kings included): with [`OUTPUT_BUCKETS`], one for every four pieces
/// from 2 up, the last taking 30 to 32.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    if buckets <= 1 {
        0
    } else {
        (pieces.saturating_sub(2) as usize / 4).min(buckets - 1)
    }
}

/// One output layer: its weights on the side to move's half of the hidden layer and on the
/// other's, and its bias.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputLayer {
    pub weights: [[i16; HIDDEN]; 2],
    pub bias: i32,
}

/// A network ready for inference.
#[derive(Clone)]
pub struct Network {
    pub generation: u32,
    pub base: Base,
    pub description: String,
    /// One row of `HIDDEN` weights per input feature.
    pub feature_weights: Vec<[i16; HIDDEN]>,
    pub feature_bias: [i16; HIDDEN],
    /// One output layer, or [`OUTPUT_BUCKETS`].
    pub outputs: Vec<OutputLayer>,
    /// What an output weight of 1.0 is in the file: a power of two from [`QB`] to [`MAX_QB`].
    pub output_scale: i32,
    /// The hidden units the file stored; the units from here to [`HIDDEN`] are zero.
    pub width: usize,
    /// The file's checksum: names the network (an evaluation cache must not mix two).
    pub checksum: u64,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network(generation {}, base {}, {} output layers, {:016x})",
            self.generation,
            self.base.name(),
            self.buckets(),
            self.checksum
        )
    }
}

/// Why bytes are not a network this engine can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    WrongSize { found: usize, expected: usize },
    NotANetwork,
    Version(u32),
    Shape { inputs: u32, hidden: u32 },
    Quantisation,
    OutputWeight,
    Base(u32),
    Buckets(u32),
    Checksum,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::WrongSize { found, expected } => {
                write!(f, "{found} bytes, a network file has {expected}")
            }
            NetworkError::NotANetwork => write!(f, "not a Veil network file"),
            NetworkError::Version(version) => {
                write!(f, "network format version {version}, this engine reads 1 to {VERSION}")
            }
            NetworkError::Shape { inputs, hidden } => write!(
                f,
                "network shape {inputs}x{hidden}, this engine reads {INPUTS}x1 to {INPUTS}x{HIDDEN}"
            ),
            NetworkError::Quantisation => write!(f, "the network's quantisation is not one this engine reads"),
            NetworkError::OutputWeight => {
                write!(f, "an output weight of the network lies beyond +/-{MAX_OUTPUT_WEIGHT}")
            }
            NetworkError::Base(base) => write!(f, "network base {base} is not one this engine knows"),
            NetworkError::Buckets(buckets) => {
                write!(f, "{buckets} output layers, this engine reads 1 or {OUTPUT_BUCKETS}")
            }
            NetworkError::Checksum => write!(f, "the network file is damaged (checksum)"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// FNV-1a over `bytes`.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out = self.bytes[self.at..self.at + N].try_into().expect("size checked first");
        self.at += N;
        out
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
}

impl Network {
    /// Reads a network file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        // Long enough for a header, and no longer than the widest network: the header then
        // says the exact size.
        if !(file_size(1, 1)..=FILE_SIZE).contains(&bytes.len()) {
            return Err(NetworkError::WrongSize {
                found: bytes.len(),
                expected: FILE_SIZE,
            });
        }
        if &bytes[..8] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let mut reader = Reader { bytes, at: 8 };
        let version = reader.u32();
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkError::Version(version));
        }
        let generation = reader.u32();
        let (inputs, hidden) = (reader.u32(), reader.u32());
        if inputs as usize != INPUTS || !(1..=HIDDEN).contains(&(hidden as usize)) {
            return Err(NetworkError::Shape { inputs, hidden });
        }
        let width = hidden as usize;
        // The tail (base, output layers, description) comes after QA, QB and the scale.
        let tail = &bytes[8 + 7 * 4..HEADER_SIZE];
        let word = |at: usize| u32::from_le_bytes(tail[at..at + 4].try_into().expect("4 bytes"));
        let (base, buckets, description) = match version {
            1 => (0, 1, tail),
            2 => (word(0), 1, &tail[4..]),
            _ => (word(0), word(4), &tail[8..]),
        };
        if buckets != 1 && buckets as usize != OUTPUT_BUCKETS {
            return Err(NetworkError::Buckets(buckets));
        }
        let buckets = buckets as usize;
        let size = file_size(width, buckets);
        if bytes.len() != size {
            return Err(NetworkError::WrongSize {
                found: bytes.len(),
                expected: size,
            });
        }
        let stored = u64::from_le_bytes(bytes[size - 8..].try_into().expect("8 bytes"));
        if checksum(&bytes[..size - 8]) != stored {
            return Err(NetworkError::Checksum);
        }
        let (qa, qb, scale) = (reader.u32(), reader.u32(), reader.u32());
        if (qa, scale) != (QA as u32, SCALE as u32)
            || !qb.is_power_of_two()
            || !(QB as u32..=MAX_QB as u32).contains(&qb)
        {
            return Err(NetworkError::Quantisation);
        }
        let base = Base::from_u32(base).ok_or(NetworkError::Base(base))?;
        reader.at = HEADER_SIZE;
        let end = description.iter().position(|&b| b == 0).unwrap_or(description.len());
        let description = String::from_utf8_lossy(&description[..end]).into_owned();
        let mut feature_weights = vec![[0i16; HIDDEN]; INPUTS];
        for row in feature_weights.iter_mut() {
            for weight in &mut row[..width] {
                *weight = reader.i16();
            }
        }
        let mut feature_bias = [0i16; HIDDEN];
        for bias in &mut feature_bias[..width] {
            *bias = reader.i16();
        }
        let mut outputs = Vec::with_capacity(buckets);
        for _ in 0..buckets {
            let mut weights = [[0i16; HIDDEN]; 2];
            for half in weights.iter_mut() {
                for weight in &mut half[..width] {
                    *weight = reader.i16();
                }
            }
            let bias = i32::from_le_bytes(reader.take());
            outputs.push(OutputLayer { weights, bias });
        }
        if outputs
            .iter()
            .flat_map(|layer| layer.weights.iter().flatten())
            .any(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(NetworkError::OutputWeight);
        }
        Ok(Network {
            generation,
            base,
            description,
            feature_weights,
            feature_bias,
            outputs,
            output_scale: qb as i32,
            width,
            checksum: stored,
        })
    }

    /// How many output layers the network has: 1 or [`OUTPUT_BUCKETS`].
    pub fn buckets(&self) -> usize {
        self.outputs.len()
    }

    /// The output layer that scores `position`.
    #[inline]
    pub fn bucket_of(&self, position: &crate::rules::Position) -> usize {
        output_bucket(position.occupied().count(), self.buckets())
    }

    /// The network as a file's bytes, `width` units wide (the units beyond it must be zero).
    pub fn to_bytes(&self) -> Vec<u8> {
        let width = self.width;
        let buckets = self.buckets();
        debug_assert!((1..=HIDDEN).contains(&width));
        debug_assert!(buckets == 1 || buckets == OUTPUT_BUCKETS);
        let mut out = Vec::with_capacity(file_size(width, buckets));
        out.extend_from_slice(MAGIC);
        for value in [
            VERSION,
            self.generation,
            INPUTS as u32,
            width as u32,
            QA as u32,
            self.output_scale as u32,
            SCALE as u32,
            self.base as u32,
            buckets as u32,
        ] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        let mut description = [0u8; DESCRIPTION_SIZE];
        let text = self.description.as_bytes();
        // Cut at a character boundary so that the stored text stays UTF-8.
        let mut len = text.len().min(DESCRIPTION_SIZE - 1);
        while !self.description.is_char_boundary(len) {
            len -= 1;
        }
        description[..len].copy_from_slice(&text[..len]);
        out.extend_from_slice(&description);
        for row in &self.feature_weights {
            for weight in &row[..width] {
                out.extend_from_slice(&weight.to_le_bytes());
            }
        }
        for bias in &self.feature_bias[..width] {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        for layer in &self.outputs {
            for half in &layer.weights {
                for weight in &half[..width] {
                    out.extend_from_slice(&weight.to_le_bytes());
                }
            }
            out.extend_from_slice(&layer.bias.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(out.len(), file_size(width, buckets));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_network(base: Base) -> Network {
        small_network_of_width(base, HIDDEN)
    }

    fn small_network_of_width(base: Base, width: usize) -> Network {
        let mut feature_weights = vec![[0i16; HIDDEN]; INPUTS];
        feature_weights[7][3] = 12;
        let network = Network {
            generation: 5,
            base,
            description: "a test".to_string(),
            feature_weights,
            feature_bias: std::array::from_fn(|j| if j < width { 3 } else { 0 }),
            outputs: vec![OutputLayer {
                weights: [
                    std::array::from_fn(|j| (j < width) as i16),
                    std::array::from_fn(|j| -((j < width) as i16)),
                ],
                bias: 9,
            }],
            output_scale: QB,
            width,
            checksum: 0,
        };
        Network::from_bytes(&network.to_bytes()).unwrap()
    }

    #[test]
    fn the_base_survives_the_file() {
        for base in [Base::Nothing, Base::HandWritten, Base::Material] {
            let network = small_network(base);
            assert_eq!((network.base, network.generation), (base, 5));
            assert_eq!(network.description, "a test");
        }
    }

    /// `bytes` (a one-layer file of this version) as a file of an older `version`: version 2
    /// had no count of output layers and a 60-byte description, version 1 not even a base
    /// (a 64-byte description).
    fn as_version(bytes: &[u8], version: u32) -> Vec<u8> {
        let mut old = bytes[..bytes.len() - 8].to_vec();
        old[8..12].copy_from_slice(&version.to_le_bytes());
        let at = 8 + 7 * 4;
        let description = old[at + 8..at + TAIL_SIZE].to_vec();
        let start = if version == 1 { at } else { at + 4 };
        old[start..start + DESCRIPTION_SIZE].copy_from_slice(&description);
        old[start + DESCRIPTION_SIZE..at + TAIL_SIZE].fill(0);
        let sum = checksum(&old);
        old.extend_from_slice(&sum.to_le_bytes());
        old
    }

    /// A version 1 file (no base; a 64-byte description) reads as a whole evaluation, and a
    /// version 2 file (no count of output layers) as a network with one.
    #[test]
    fn older_files_still_read() {
        let bytes = small_network(Base::HandWritten).to_bytes();
        let network = Network::from_bytes(&as_version(&bytes, 1)).unwrap();
        assert_eq!(network.base, Base::Nothing);
        assert_eq!(network.description, "a test");
        assert_eq!(network.feature_weights[7][3], 12);
        let network = Network::from_bytes(&as_version(&bytes, 2)).unwrap();
        assert_eq!((network.base, network.buckets()), (Base::HandWritten, 1));
        assert_eq!((network.description.as_str(), network.outputs[0].bias), ("a test", 9));
        assert_eq!(network.to_bytes(), bytes);
    }

    /// A network with an output layer per bucket round-trips; other counts are refused.
    #[test]
    fn bucketed_networks_round_trip() {
        let mut network = small_network(Base::HandWritten);
        network.outputs = (0..OUTPUT_BUCKETS)
            .map(|b| OutputLayer {
                weights: [[b as i16; HIDDEN], [-(b as i16); HIDDEN]],
                bias: b as i32,
            })
            .collect();
        let bytes = network.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        let read = Network::from_bytes(&bytes).unwrap();
        assert_eq!(
            (read.buckets(), read.outputs[5].bias, read.outputs[3].weights[1][0]),
            (8, 5, -3)
        );
        let mut wrong = bytes.clone();
        let at = 8 + 7 * 4 + 4;
        wrong[at..at + 4].copy_from_slice(&3u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&wrong).unwrap_err(), NetworkError::Buckets(3));
    }

    #[test]
    fn buckets_follow_the_count_of_pieces() {
        let buckets: Vec<usize> = [2, 5, 6, 17, 29, 30, 32].iter().map(|&n| output_bucket(n, 8)).collect();
        assert_eq!(buckets, [0, 0, 1, 3, 6, 7, 7]);
        assert!((0..=32).all(|n| output_bucket(n, 1) == 0));
    }

    /// A narrower file reads with its missing units at zero and writes back byte for byte.
    #[test]
    fn narrower_files_read_padded() {
        let width = HIDDEN / 2;
        let narrow = small_network_of_width(Base::HandWritten, width);
        let bytes = narrow.to_bytes();
        assert_eq!(bytes.len(), file_size(width, 1));
        let read = Network::from_bytes(&bytes).unwrap();
        assert_eq!(read.width, width);
        assert_eq!(read.feature_bias[width - 1], 3);
        assert!(read.feature_bias[width..].iter().all(|&b| b == 0));
        assert!(read
            .outputs
            .iter()
            .flat_map(|layer| &layer.weights)
            .all(|half| half[width..].iter().all(|&w| w == 0)));
        assert_eq!(read.to_bytes(), bytes);
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 2]),
            Err(NetworkError::WrongSize { .. })
        ));
    }

    #[test]
    fn oversized_output_weights_are_refused() {
        let mut network = small_network(Base::Nothing);
        network.outputs[0].weights[1][5] = -(MAX_OUTPUT_WEIGHT + 1);
        assert_eq!(
            Network::from_bytes(&network.to_bytes()).unwrap_err(),
            NetworkError::OutputWeight
        );
        network.outputs[0].weights[1][5] = -MAX_OUTPUT_WEIGHT;
        assert!(Network::from_bytes(&network.to_bytes()).is_ok());
    }

    #[test]
    fn unknown_bases_are_refused() {
        let mut bytes = small_network(Base::Nothing).to_bytes();
        let at = 8 + 7 * 4;
        bytes[at..at + 4].copy_from_slice(&7u32.to_le_bytes());
        let size = bytes.len();
        let sum = checksum(&bytes[..size - 8]);
        bytes[size - 8..].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(Network::from_bytes(&bytes).unwrap_err(), NetworkError::Base(7));
    }

    #[test]
    fn the_output_scale_survives_the_file_and_odd_ones_are_refused() {
        let mut network = small_network(Base::HandWritten);
        network.output_scale = 1024;
        assert_eq!(Network::from_bytes(&network.to_bytes()).unwrap().output_scale, 1024);
        for scale in [32, 96, 2 * MAX_QB] {
            network.output_scale = scale;
            assert_eq!(
                Network::from_bytes(&network.to_bytes()).unwrap_err(),
                NetworkError::Quantisation
            );
        }
    }
}
