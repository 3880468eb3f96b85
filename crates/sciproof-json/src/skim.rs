//! Skimming the inside of a streamed item sixty-four bytes at a time: what the cutter of
//! [`super::stream`] does a byte (or a string) at a time, tracking bracket depth outside
//! strings until the item may end, done with bit masks.
//!
//! Written here rather than taken from a crate: the cutter must stop at exactly the byte its
//! one-at-a-time rules stop at, valid JSON or not (the error a document gets depends on it),
//! which a general-purpose structural indexer does not promise; and a block that holds a
//! backslash is left to those rules (escapes are rare, and a backslash outside a string must
//! not escape anything, as it does not there).

/// Where [`skim`] stopped, as an offset into the bytes it was given, with the state there.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Skim {
    /// At a byte outside strings at depth 2 that may end the item (`,`, `]`) or is an error
    /// there (`}`): the cutter's one-at-a-time rules take it.
    Event(usize),
    /// At the start of a block with a backslash in it: the one-at-a-time rules take the next
    /// [`BLOCK`] bytes.
    Escape(usize),
    /// Fewer than [`BLOCK`] bytes were left after this offset.
    Short(usize),
}

/// Bytes per block.
pub(crate) const BLOCK: usize = 64;

/// Skims `bytes`, which start inside an item outside any string at `depth` (at least 2, the
/// streamed array being at depth 2) while `in_string` is false: `depth` and `in_string` are
/// left as they are at the offset returned. Bytes up to that offset hold no event (see
/// [`Skim::Event`]), strings are passed over (no backslash in them), brackets counted.
pub(crate) fn skim(bytes: &[u8], depth: &mut usize, in_string: &mut bool) -> Skim {
    let mut at = 0;
    while at + BLOCK <= bytes.len() {
        let block: &[u8; BLOCK] = bytes[at..at + BLOCK]
            .try_into()
            .expect("a block is BLOCK bytes");
        let m = masks(block);
        if m.backslash != 0 {
            return Skim::Escape(at);
        }
        // Inside a string (its opening quote included, its closing one not): each quote
        // toggles, from the state the block starts in.
        let inside = prefix_xor(m.quote) ^ if *in_string { !0 } else { 0 };
        let brackets = (m.open | m.close) & !inside;
        let commas = m.comma & !inside;
        // Bits not passed yet.
        let mut rest = !0u64;
        loop {
            let depth_two = *depth == 2;
            let next = (brackets | if depth_two { commas } else { 0 }) & rest;
            if next == 0 {
                break;
            }
            let k = next.trailing_zeros();
            let bit = 1u64 << k;
            if depth_two && bit & (commas | m.close) != 0 {
                *in_string = false;
                return Skim::Event(at + k as usize);
            }
            if bit & m.open != 0 {
                *depth += 1;
            } else {
                *depth -= 1;
            }
            rest = !((2u64 << k).wrapping_sub(1));
        }
        *in_string = inside >> 63 == 1;
        at += BLOCK;
    }
    Skim::Short(at)
}

/// Bit `i` set where the block's byte `i` is one of the bytes the skimmer looks for.
#[derive(Debug, Default, PartialEq)]
struct Masks {
    quote: u64,
    backslash: u64,
    /// `{` or `[`.
    open: u64,
    /// `}` or `]`.
    close: u64,
    comma: u64,
}

/// Bit `i` of the result: the parity of bits `0..=i` of `bits`.
fn prefix_xor(mut bits: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        bits ^= bits << shift;
    }
    bits
}

#[cfg(target_arch = "x86_64")]
fn masks(block: &[u8; BLOCK]) -> Masks {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let mut m = Masks::default();
    // SAFETY: SSE2 is part of every x86_64 processor, and each load reads sixteen bytes inside
    // the block; an unaligned load has no other requirement.
    unsafe {
        let [quote, backslash, open, close, comma, case] =
            [b'"', b'\\', b'{', b'}', b',', 0x20].map(|b| _mm_set1_epi8(b as i8));
        for lane in 0..BLOCK / 16 {
            let v = _mm_loadu_si128(block.as_ptr().add(lane * 16).cast::<__m128i>());
            // `[` and `{` differ only in bit 0x20, as do `]` and `}`; no other byte becomes
            // `{` or `}` with that bit set.
            let folded = _mm_or_si128(v, case);
            let bits = |x| u64::from(_mm_movemask_epi8(x) as u16) << (lane * 16);
            m.quote |= bits(_mm_cmpeq_epi8(v, quote));
            m.backslash |= bits(_mm_cmpeq_epi8(v, backslash));
            m.open |= bits(_mm_cmpeq_epi8(folded, open));
            m.close |= bits(_mm_cmpeq_epi8(folded, close));
            m.comma |= bits(_mm_cmpeq_epi8(v, comma));
        }
    }
    m
}

#[cfg(not(target_arch = "x86_64"))]
fn masks(block: &[u8; BLOCK]) -> Masks {
    masks_by_byte(block)
}

/// [`masks`] a byte at a time: the definition (on x86_64, what the vector version is tested
/// against).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn masks_by_byte(block: &[u8; BLOCK]) -> Masks {
    let mut m = Masks::default();
    for (i, &b) in block.iter().enumerate() {
        let bit = 1u64 << i;
        match b {
            b'"' => m.quote |= bit,
            b'\\' => m.backslash |= bit,
            b'{' | b'[' => m.open |= bit,
            b'}' | b']' => m.close |= bit,
            b',' => m.comma |= bit,
            _ => {}
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The cutter's rules a byte at a time: where they stop (an event, or a backslash inside a
    /// string), with depth and string state there; `None` when the bytes run out first.
    fn one_at_a_time(bytes: &[u8], mut depth: usize) -> Option<(usize, usize, bool)> {
        let mut in_string = false;
        for (i, &b) in bytes.iter().enumerate() {
            if in_string {
                match b {
                    b'"' => in_string = false,
                    b'\\' => return Some((i, depth, true)),
                    _ => {}
                }
                continue;
            }
            match b {
                b',' | b']' | b'}' if depth == 2 => return Some((i, depth, false)),
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth -= 1,
                _ => {}
            }
        }
        None
    }

    proptest! {
        /// Skimming agrees with the byte-at-a-time rules: an event at the very byte they stop
        /// at, with their depth; a backslash block or the end only before they stop, with
        /// their state at that offset.
        #[test]
        fn agrees_with_the_byte_at_a_time_rules(
            text in proptest::collection::vec(
                prop_oneof![
                    8 => Just(b' '), 2 => Just(b'a'), 3 => Just(b'"'), 2 => Just(b'{'),
                    2 => Just(b'}'), 2 => Just(b'['), 2 => Just(b']'), 2 => Just(b','),
                    1 => Just(b'\\'), 1 => Just(b'\n'), 1 => Just(b':'),
                ],
                0..600,
            ),
            depth in 2usize..5,
        ) {
            let mut d = depth;
            let mut s = false;
            let skimmed = skim(&text, &mut d, &mut s);
            let stop = one_at_a_time(&text, depth);
            match skimmed {
                Skim::Event(at) => {
                    prop_assert_eq!(stop, Some((at, d, false)));
                }
                Skim::Escape(at) | Skim::Short(at) => {
                    if let Some((i, _, _)) = stop {
                        prop_assert!(i >= at, "skimmed past the stop at {}: {:?}", i, skimmed);
                    }
                    // The state at `at`: the byte-at-a-time rules over the bytes before it.
                    let (mut d2, mut s2) = (depth, false);
                    for &b in &text[..at] {
                        if s2 {
                            s2 = b != b'"';
                        } else {
                            match b {
                                b'"' => s2 = true,
                                b'{' | b'[' => d2 += 1,
                                b'}' | b']' => d2 -= 1,
                                _ => {}
                            }
                        }
                    }
                    prop_assert_eq!((d, s), (d2, s2));
                    if let Skim::Escape(at) = skimmed {
                        prop_assert!(text[at..at + BLOCK].contains(&b'\\'));
                    } else {
                        prop_assert!(text.len() - at < BLOCK);
                    }
                }
            }
        }
    }

    proptest! {
        /// The masks of a block are those a byte at a time gives.
        #[test]
        fn masks_are_those_of_each_byte(block in proptest::array::uniform32(
            prop_oneof![any::<u8>(), Just(b'"'), Just(b'\\'), Just(b'{'), Just(b']'), Just(b',')],
        ), rest in proptest::array::uniform32(any::<u8>())) {
            let mut whole = [0u8; BLOCK];
            whole[..32].copy_from_slice(&block);
            whole[32..].copy_from_slice(&rest);
            prop_assert_eq!(masks(&whole), masks_by_byte(&whole));
        }
    }

    #[test]
    fn a_pretty_claim_is_skimmed_to_its_end() {
        let item = "{\n      \"a\": [1, 2],\n      \"b\": \"x, ] } [ {\",\n      \"c\": {\"d\": []}\n    }";
        let text = format!("{item},\n    {{\"next\": 1}}{:80}", "");
        let mut depth = 3;
        let mut in_string = false;
        // (the item's first brace already taken, as the cutter takes it)
        let skimmed = skim(&text.as_bytes()[1..], &mut depth, &mut in_string);
        assert_eq!(skimmed, Skim::Event(item.len() - 1));
        assert_eq!((depth, in_string), (2, false));
        let escaped = format!("{:10}\"\\\"\"{:60}", "", "");
        assert_eq!(
            skim(escaped.as_bytes(), &mut 3, &mut false),
            Skim::Escape(0)
        );
    }
}
