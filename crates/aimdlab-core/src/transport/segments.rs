//! Segment sizes of a flow: every segment carries one MSS except the last of a finite
//! transfer, which carries the remainder.

/// How many segments a flow has and how big each is.
#[derive(Clone, Copy, Debug)]
pub struct SegmentSizes {
    /// Payload bytes of a full segment.
    pub mss: u64,
    /// Total segments of a finite transfer (`None`: unlimited).
    pub total: Option<u64>,
    /// Payload of the last segment of a finite transfer.
    pub last_payload: u64,
}

impl SegmentSizes {
    /// Sizes for an unlimited flow (`size_bytes = None`) or a finite one.
    pub fn new(mss: u64, size_bytes: Option<u64>) -> Self {
        match size_bytes {
            None => SegmentSizes { mss, total: None, last_payload: mss },
            Some(b) => {
                let total = b.div_ceil(mss);
                SegmentSizes { mss, total: Some(total), last_payload: b - (total - 1) * mss }
            }
        }
    }

    /// Payload bytes of segment `seq`.
    #[inline]
    pub fn payload(&self, seq: u64) -> u64 {
        match self.total {
            Some(t) if seq + 1 == t => self.last_payload,
            _ => self.mss,
        }
    }

    /// Payload bytes of segments `[a, b)`.
    #[inline]
    pub fn payload_range(&self, a: u64, b: u64) -> u64 {
        if b <= a {
            return 0;
        }
        let mut bytes = (b - a) * self.mss;
        if let Some(t) = self.total {
            if a < t && t <= b {
                bytes -= self.mss - self.last_payload;
            }
        }
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_segment_carries_the_remainder() {
        let s = SegmentSizes::new(1000, Some(2500));
        assert_eq!(s.total, Some(3));
        assert_eq!((s.payload(0), s.payload(2)), (1000, 500));
        assert_eq!(s.payload_range(0, 3), 2500);
        assert_eq!(s.payload_range(1, 2), 1000);
        let exact = SegmentSizes::new(1000, Some(3000));
        assert_eq!((exact.total, exact.payload(2)), (Some(3), 1000));
    }
}
