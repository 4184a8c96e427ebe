//! What an acknowledgement carries besides its number, one variant per transport's options:
//! TCP's SACK blocks (RFC 2018), DCCP's Ack Vector (RFC 4340 §11.4) and the acknowledgement
//! of acknowledgements its data packets carry, CCID-3's TFRC feedback (RFC 4342 §8: Receive
//! Rate, Loss Event Rate, Elapsed Time). Laid out inline to keep `Packet` at its size (40
//! bytes, as the range list alone).

/// Most SACK blocks one ACK carries (three, as with the timestamp option, RFC 2018 §3).
pub const MAX_SACK_BLOCKS: usize = 3;

/// Half-open segment ranges `[start, end)` above a base, at most `MAX_SACK_BLOCKS`: TCP's
/// SACK blocks (above the cumulative ACK, the most recently changed first, RFC 2018 §4) or
/// a DCCP Ack Vector's received runs. Stored as 32-bit offsets from the base to keep packets
/// small; a block lies within the receive window (at most 2^24 segments), so the offsets
/// always fit. A packet carries them in its `AckOptions`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    base: u64,
    offsets: [(u32, u32); MAX_SACK_BLOCKS],
    len: u8,
}

impl SackBlocks {
    /// No blocks yet, for an ACK whose cumulative sequence is `base`.
    pub fn new(base: u64) -> Self {
        SackBlocks { base, offsets: [(0, 0); MAX_SACK_BLOCKS], len: 0 }
    }
    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// Whether there is no block.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Whether all block slots are used.
    pub fn is_full(&self) -> bool {
        self.len as usize == MAX_SACK_BLOCKS
    }
    /// Appends block `[start, end)` (start ≥ base) if there is room.
    pub fn push(&mut self, start: u64, end: u64) {
        debug_assert!(start >= self.base && end - self.base <= u32::MAX as u64);
        if !self.is_full() {
            self.offsets[self.len as usize] = ((start - self.base) as u32, (end - self.base) as u32);
            self.len += 1;
        }
    }
    /// The blocks as absolute `[start, end)` ranges.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.offsets[..self.len as usize].iter().map(|&(s, e)| (self.base + s as u64, self.base + e as u64))
    }
    /// The base the offsets count from (TCP: the cumulative ACK).
    pub fn base(&self) -> u64 {
        self.base
    }
    /// Its base, offsets and count (what `AckOptions` stores inline).
    pub fn parts(&self) -> (u64, [(u32, u32); MAX_SACK_BLOCKS], u8) {
        (self.base, self.offsets, self.len)
    }
    /// The list `parts` gave.
    pub fn from_parts(base: u64, offsets: [(u32, u32); MAX_SACK_BLOCKS], len: u8) -> Self {
        SackBlocks { base, offsets, len }
    }
    /// The blocks as a vector (for tests and debugging).
    pub fn to_vec(&self) -> Vec<(u64, u64)> {
        self.iter().collect()
    }
}

/// CCID-3 feedback: the three option values (RFC 4342 §8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TfrcFeedback {
    /// Receive Rate, bytes per second.
    pub x_recv_bytes_per_s: u32,
    /// Loss Event Rate option: 1/p (`u32::MAX` for no loss).
    pub inverse_p: u32,
    /// Elapsed Time between the newest packet's arrival and this feedback, microseconds.
    pub elapsed_us: u32,
}

/// A packet's acknowledgement options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AckOptions {
    /// None.
    #[default]
    None,
    /// TCP SACK blocks above the cumulative ACK `base` (offsets from it).
    Sack {
        /// The cumulative ACK the offsets count from.
        base: u64,
        /// `[start, end)` offsets, the first `len` used.
        ranges: [(u32, u32); MAX_SACK_BLOCKS],
        /// Blocks used.
        len: u8,
    },
    /// A DCCP Ack Vector's newest received runs (offsets from `base`).
    AckVector {
        /// The sequence number the offsets count from.
        base: u64,
        /// `[start, end)` offsets of received runs, the first `len` used.
        runs: [(u32, u32); MAX_SACK_BLOCKS],
        /// Runs used.
        len: u8,
    },
    /// A DCCP data packet's acknowledgement of acknowledgements: one above the newest ACK the
    /// sender has seen, below which the receiver may forget its Ack Vector (0: none yet).
    AckOfAck(u64),
    /// CCID-3 feedback.
    TfrcFeedback(TfrcFeedback),
}

impl AckOptions {
    /// SACK blocks.
    #[inline]
    pub fn sack(blocks: SackBlocks) -> Self {
        let (base, ranges, len) = blocks.parts();
        AckOptions::Sack { base, ranges, len }
    }

    /// An Ack Vector's runs.
    pub fn ack_vector(runs: SackBlocks) -> Self {
        let (base, runs, len) = runs.parts();
        AckOptions::AckVector { base, runs, len }
    }

    /// The ranges of SACK blocks or of an Ack Vector (none for other options).
    #[inline]
    pub fn ranges(&self) -> SackBlocks {
        match *self {
            AckOptions::Sack { base, ranges, len } | AckOptions::AckVector { base, runs: ranges, len } => SackBlocks::from_parts(base, ranges, len),
            _ => SackBlocks::new(0),
        }
    }

    /// A DCCP data packet's acknowledgement of acknowledgements (0 for other options).
    pub fn ack_of_ack(&self) -> u64 {
        match *self {
            AckOptions::AckOfAck(n) => n,
            _ => 0,
        }
    }

    /// CCID-3 feedback, if these are.
    pub fn tfrc_feedback(&self) -> Option<TfrcFeedback> {
        match *self {
            AckOptions::TfrcFeedback(f) => Some(f),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_take_no_more_room_than_the_ranges_alone() {
        assert_eq!(std::mem::size_of::<AckOptions>(), std::mem::size_of::<SackBlocks>());
    }

    #[test]
    fn ranges_come_back_as_they_went_in_and_only_from_ranges() {
        let mut b = SackBlocks::new(10);
        b.push(12, 15);
        b.push(17, 18);
        assert_eq!(AckOptions::sack(b).ranges().to_vec(), vec![(12, 15), (17, 18)]);
        assert_eq!(AckOptions::ack_vector(b).ranges(), b);
        assert!(AckOptions::AckOfAck(7).ranges().is_empty());
        assert_eq!(AckOptions::AckOfAck(7).ack_of_ack(), 7);
        assert_eq!(AckOptions::sack(b).tfrc_feedback(), None);
    }
}
