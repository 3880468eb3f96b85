//! Claim ID -> position. Well-formed IDs (`clm_` + 16 hex digits) are keyed by the 64-bit
//! number they spell, which keeps a million-claim index small; anything else by its text.

use std::collections::HashMap;

/// A map from claim ID to position in the graph.
#[derive(Debug, Clone, Default)]
pub struct IdIndex {
    numeric: HashMap<u64, u32>,
    other: HashMap<String, u32>,
}

fn number(id: &str) -> Option<u64> {
    if super::id::is_claim_id(id) {
        u64::from_str_radix(&id[4..], 16).ok()
    } else {
        None
    }
}

impl IdIndex {
    /// The position of `id`.
    pub fn get(&self, id: &str) -> Option<u32> {
        match number(id) {
            Some(n) => self.numeric.get(&n).copied(),
            None => self.other.get(id).copied(),
        }
    }

    /// Records `id` at `position` (replacing an earlier position).
    pub fn insert(&mut self, id: &str, position: u32) {
        match number(id) {
            Some(n) => {
                self.numeric.insert(n, position);
            }
            None => {
                self.other.insert(id.to_string(), position);
            }
        }
    }

    /// Whether `id` is present.
    pub fn contains(&self, id: &str) -> bool {
        self.get(id).is_some()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_kinds_of_id() {
        let mut i = super::IdIndex::default();
        i.insert("clm_00000000000000ff", 1);
        i.insert("hand-made", 2);
        assert_eq!(i.get("clm_00000000000000ff"), Some(1));
        assert_eq!(i.get("clm_00000000000000FF"), None);
        assert_eq!(i.get("hand-made"), Some(2));
        assert!(!i.contains("clm_0000000000000000"));
    }
}
