//! The random source of `diff`: SplitMix64, written out here so that a seed
//! names the same documents on every machine and with every version of
//! every dependency (a general-purpose generator crate promises neither
//! for its sampling helpers).

/// A deterministic stream of random numbers.
#[derive(Debug, Clone)]
pub(crate) struct Random {
    state: u64,
}

/// The golden-ratio increment of SplitMix64.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl Random {
    /// The stream of document `index` of the run seeded with `seed`: each
    /// document has a stream of its own, so that one document is made
    /// again from its seed and index alone.
    pub(crate) fn for_document(seed: u64, index: u64) -> Random {
        let mut mixer = Random {
            state: seed ^ index.wrapping_mul(GAMMA).rotate_left(17),
        };
        Random {
            state: mixer.next_u64() ^ index,
        }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`). The modulo bias is below 2^-40 for
    /// the small `n` used here.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One item of `items` (not empty).
    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_and_index_name_one_stream() {
        let take = |seed, index| {
            let mut random = Random::for_document(seed, index);
            (0..4).map(|_| random.next_u64()).collect::<Vec<_>>()
        };
        assert_eq!(take(7, 3), take(7, 3));
        assert_ne!(take(7, 3), take(7, 4));
        assert_ne!(take(7, 3), take(8, 3));
        // Pinned (worked out independently from the SplitMix64 definition):
        // the documents of a seed must not change between versions.
        assert_eq!(Random::for_document(1, 2).next_u64(), 0xb366_71f6_e137_257c);
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut random = Random::for_document(1, 1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let value = random.below(7);
            seen[value] = true;
        }
        assert!(seen.iter().all(|seen| *seen));
    }
}
