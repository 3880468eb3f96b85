//! Claim ID -> position. Well-formed IDs (`clm_` + 16 hex digits) are keyed by the 64-bit
//! number they spell, which keeps a million-claim index small; anything else by its text.

use super::id::claim_id_number as number;
use std::collections::HashMap;
use std::hash::BuildHasher;

/// The hasher of the index: foldhash's quality variant, seeded per process (a document's IDs are
/// untrusted, so the seed keeps a crafted set of IDs from colliding), and several times faster
/// than the standard SipHash on a million 64-bit keys.
type Seeded = foldhash::quality::RandomState;

/// A map from claim ID to position in the graph.
#[derive(Debug, Clone, Default)]
pub struct IdIndex {
    numeric: Numbers,
    other: HashMap<String, u32, Seeded>,
}

impl IdIndex {
    /// The position of `id`.
    pub fn get(&self, id: &str) -> Option<u32> {
        match number(id) {
            Some(n) => self.numeric.get(n),
            None => self.other.get(id).copied(),
        }
    }

    /// Starts fetching the memory that a lookup of `id` will read, so that the lookups of a
    /// claim's dependencies wait for memory together rather than one after another. Changes
    /// nothing (a hint to the processor).
    pub fn prefetch(&self, id: &str) {
        if let Some(n) = number(id) {
            self.numeric.prefetch(n);
        }
    }

    /// Records `id` at `position` (replacing an earlier position).
    pub fn insert(&mut self, id: &str, position: u32) {
        match number(id) {
            Some(n) => match self.numeric.entry(n) {
                Ok(slot) => self.numeric.slots[slot].position = position,
                Err(slot) => self.numeric.fill(slot, n, position),
            },
            None => {
                self.other.insert(id.to_string(), position);
            }
        }
    }

    /// Records `id` at `position` unless it is present: then its position is the error. One
    /// lookup instead of a `get` and an `insert`.
    pub fn insert_new(&mut self, id: &str, position: u32) -> Result<(), u32> {
        use std::collections::hash_map::Entry;
        match number(id) {
            Some(n) => match self.numeric.entry(n) {
                Ok(slot) => Err(self.numeric.slots[slot].position),
                Err(slot) => {
                    self.numeric.fill(slot, n, position);
                    Ok(())
                }
            },
            None => match self.other.entry(id.to_string()) {
                Entry::Occupied(o) => Err(*o.get()),
                Entry::Vacant(v) => {
                    v.insert(position);
                    Ok(())
                }
            },
        }
    }

    /// Whether `id` is present.
    pub fn contains(&self, id: &str) -> bool {
        self.get(id).is_some()
    }
}

/// The position a slot holds when it is empty (never a claim's: a document of at most 2 GiB
/// holds far fewer claims).
const EMPTY: u32 = u32::MAX;

/// One entry of [`Numbers`]: the key and its position side by side in 12 bytes, so that a
/// lookup reads one place in memory.
#[derive(Debug, Clone, Copy)]
#[repr(C, packed(4))]
struct Slot {
    key: u64,
    position: u32,
}

/// The numbered IDs: open addressing with linear probing, at most half full.
///
/// Written here rather than taken from `HashMap` because the reader of a large document looks
/// up every dependency of every claim, and in a table of a million entries each lookup is a
/// cache miss. `HashMap` keeps its control bytes apart from its entries (two misses a lookup,
/// 16 bytes an entry) and offers no way to fetch ahead; here a lookup reads one 12-byte slot,
/// which [`Numbers::prefetch`] can ask for before it is needed. The keys are untrusted: the
/// seeded hash keeps them from being chosen to collide.
#[derive(Clone, Default)]
struct Numbers {
    /// A power of two in length (or empty).
    slots: Vec<Slot>,
    len: usize,
    seed: Seeded,
}

impl std::fmt::Debug for Numbers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Numbers").field("len", &self.len).finish()
    }
}

impl Numbers {
    /// Where the probe for `key` starts.
    fn home(&self, key: u64) -> usize {
        (self.seed.hash_one(key) as usize) & (self.slots.len() - 1)
    }

    fn get(&self, key: u64) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        self.find(key).ok().map(|slot| self.slots[slot].position)
    }

    /// The slot holding `key`, or the empty slot where it would go.
    fn find(&self, key: u64) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = self.slots[i];
            if { slot.position } == EMPTY {
                return Err(i);
            }
            if { slot.key } == key {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// [`Numbers::find`], with room made for one more key first.
    fn entry(&mut self, key: u64) -> Result<usize, usize> {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        self.find(key)
    }

    /// Puts `key` at the empty slot `slot` that [`Numbers::entry`] gave.
    fn fill(&mut self, slot: usize, key: u64, position: u32) {
        assert!(position != EMPTY, "a position past the largest document");
        self.slots[slot] = Slot { key, position };
        self.len += 1;
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(16);
        let old = std::mem::replace(
            &mut self.slots,
            vec![
                Slot {
                    key: 0,
                    position: EMPTY,
                };
                size
            ],
        );
        for slot in old {
            if { slot.position } != EMPTY
                && let Err(free) = self.find(slot.key)
            {
                self.slots[free] = slot;
            }
        }
    }

    fn prefetch(&self, key: u64) {
        if self.slots.is_empty() {
            return;
        }
        let slot = &self.slots[self.home(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch only hints at memory to load; it reads nothing and cannot fault
        // (and the address is of a live slot anyway).
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(slot).cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_kinds_of_id() {
        let mut i = super::IdIndex::default();
        assert_eq!(i.get("clm_00000000000000ff"), None);
        i.prefetch("clm_00000000000000ff");
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
        i.insert("clm_00000000000000ff", 4);
        assert_eq!(i.get("clm_00000000000000ff"), Some(4));
    }

    proptest::proptest! {
        /// The index answers as a `HashMap` of the same insertions does, through every growth
        /// of its table and every run of neighbouring slots.
        #[test]
        fn answers_as_a_map_does(
            keys in proptest::collection::vec(0u64..400, 0..300),
            probes in proptest::collection::vec(0u64..400, 0..50),
        ) {
            let id = |k: u64| format!("clm_{k:016x}");
            let mut index = super::IdIndex::default();
            let mut map = std::collections::HashMap::new();
            for (p, k) in keys.iter().enumerate() {
                let p = p as u32;
                if p.is_multiple_of(3) {
                    index.insert(&id(*k), p);
                    map.insert(*k, p);
                } else {
                    let expected = map.get(k).copied();
                    proptest::prop_assert_eq!(index.insert_new(&id(*k), p), expected.map_or(Ok(()), Err));
                    map.entry(*k).or_insert(p);
                }
            }
            for k in keys.iter().chain(&probes) {
                index.prefetch(&id(*k));
                proptest::prop_assert_eq!(index.get(&id(*k)), map.get(k).copied());
            }
        }
    }
}
