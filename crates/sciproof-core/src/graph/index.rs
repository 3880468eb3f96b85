//! Claim ID -> position. Well-formed IDs (`clm_` + 16 hex digits) are keyed by the 64-bit
//! number they spell, which keeps a million-claim index small; anything else by its text.

use std::collections::HashMap;

/// The hasher of the index: foldhash's quality variant, seeded per process (a document's IDs are
/// untrusted, so the seed keeps a crafted set of IDs from colliding), and several times faster
/// than the standard SipHash on a million 64-bit keys.
type Seeded = foldhash::quality::RandomState;

/// A map from claim ID to position in the graph.
#[derive(Debug, Clone, Default)]
pub struct IdIndex {
    numeric: HashMap<u64, u32, Seeded>,
    other: HashMap<String, u32, Seeded>,
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

    /// Records `id` at `position` unless it is present: then its position is the error. One
    /// lookup instead of a `get` and an `insert`.
    pub fn insert_new(&mut self, id: &str, position: u32) -> Result<(), u32> {
        use std::collections::hash_map::Entry;
        fn put<K>(e: Entry<'_, K, u32>, position: u32) -> Result<(), u32> {
            match e {
                Entry::Occupied(o) => Err(*o.get()),
                Entry::Vacant(v) => {
                    v.insert(position);
                    Ok(())
                }
            }
        }
        match number(id) {
            Some(n) => put(self.numeric.entry(n), position),
            None => put(self.other.entry(id.to_string()), position),
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
        assert_eq!(i.insert_new("clm_00000000000000ff", 9), Err(1));
        assert_eq!(i.insert_new("hand-made", 9), Err(2));
        assert_eq!(i.insert_new("other", 3), Ok(()));
        assert_eq!(i.get("other"), Some(3));
    }
}
