//! The byte ranges of a file handed to the kernel step by step as the file is written or read:
//! a hint about each range once it is at least a step long ([`super::atomic`] asks for the
//! written range to go to disk, [`super::evicting`] for the read range's pages to be freed).

/// Bytes done so far, and where the last range handed on ended.
pub(super) struct Steps {
    step: u64,
    done: u64,
    handed: u64,
}

impl Steps {
    /// Ranges of at least `step` bytes.
    pub(super) fn new(step: u64) -> Steps {
        Steps {
            step,
            done: 0,
            handed: 0,
        }
    }

    /// Counts `n` more bytes; once a step is full, the range to hand on (offset, length), which
    /// starts where the last one ended.
    pub(super) fn advance(&mut self, n: usize) -> Option<(u64, u64)> {
        self.done += n as u64;
        if self.done - self.handed < self.step {
            return None;
        }
        let range = (self.handed, self.done - self.handed);
        self.handed = self.done;
        Some(range)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_follow_each_other_each_at_least_a_step_long() {
        let mut steps = Steps::new(10);
        let mut ranges = Vec::new();
        for n in [3, 4, 2, 1, 25, 0, 9, 1, 4] {
            ranges.extend(steps.advance(n));
        }
        // (49 bytes: the last 4 are less than a step and not handed on)
        assert_eq!(ranges, [(0, 10), (10, 25), (35, 10)]);
    }
}
