use super::*;
use crate::text::utf16;

thread_local! {
    /// Code units [`content_hash`] has hashed on this thread: work counted, not timed.
    pub(crate) static HASHED_UNITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[test]
fn hash_is_sha256_prefix_of_utf8() {
    // sha256("hello\n") = 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03
    assert_eq!(content_hash(&utf16("hello\n")), "5891b5b522d5df086d0ff0b1");
    // sha256("") = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
    assert_eq!(content_hash(&[]), "e3b0c44298fc1c149afbf4c8");
    let emoji = utf16("é😀\n漢");
    let mut std = Sha256::new();
    std.update("é😀\n漢".as_bytes());
    let want: String = std.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(content_hash(&emoji), want);
}

#[test]
fn hashing_many_ranges_on_two_threads_matches_one_by_one() {
    let text: Vec<u16> = (0..600_000u32).map(|i| [0x61, 0x4E2D, 0xD83D, 0xDE00, 0xDC00][(i % 5) as usize]).collect();
    let slices = |ranges: &[std::ops::Range<usize>]| ranges.iter().map(|r| &text[r.clone()]).collect::<Vec<_>>();
    let ranges: Vec<std::ops::Range<usize>> = (0..60).map(|k| k * 10_000..k * 10_000 + 9_000 + k).collect();
    let want: Vec<String> = ranges.iter().map(|r| content_hash(&text[r.clone()])).collect();
    assert_eq!(content_hashes(&slices(&ranges)), want);
    assert_eq!(content_hashes(&slices(&ranges[..1])), want[..1]);
    assert!(content_hashes(&[]).is_empty());
    // One range most of the work, with empty and small ones around it:
    // the pipelined path, chunk boundaries inside pairs included.
    let ranges = [0..0, 3..70_001, 70_001..70_001, 80_000..599_999, 599_999..600_000];
    let want: Vec<String> = ranges.iter().map(|r| content_hash(&text[r.clone()])).collect();
    assert_eq!(pipelined(&slices(&ranges), 3), Some(want.clone()));
    assert_eq!(pipelined(&slices(&ranges), 1), Some(want.clone()));
    assert_eq!(content_hashes(&slices(&ranges)), want);
}

#[test]
fn lone_surrogates_hash_as_wtf8() {
    let mut std = Sha256::new();
    std.update([b'a', 0xED, 0xA0, 0x80, b'b']); // U+D800 as three bytes
    let want: String = std.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(content_hash(&[0x61, 0xD800, 0x62]), want);
    assert_ne!(content_hash(&[0xD800]), content_hash(&[0xDC00]));
}

#[test]
fn long_texts_hash_like_the_one_shot_digest() {
    let text = "x😀".repeat(5000);
    let mut std = Sha256::new();
    std.update(text.as_bytes());
    let want: String = std.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(content_hash(&utf16(&text)), want);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
    #[test]
    fn hashes_agree_with_a_plain_wtf8_encoder(
        units in proptest::collection::vec(proptest::prop_oneof![
            0u16..0x80, 0x80u16..0x800, 0x800u16..0xD800, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
        ], 0..9000)
    ) {
        let want: String = Sha256::digest(encode::tests::wtf8_reference(&units))[..12].iter().map(|b| format!("{b:02x}")).collect();
        proptest::prop_assert_eq!(content_hash(&units), want.clone());
        // The portable build of the same code, whatever this CPU runs.
        let mut out = vec![0u8; 3 * units.len() + 1];
        let used = crate::kernels::portable::encode(&units, &mut out);
        proptest::prop_assert_eq!(Sha256::digest(&out[..used])[..12].iter().map(|b| format!("{b:02x}")).collect::<String>(), want);
    }

}
