/// WTF-8 the plain way: std's decoder, lone surrogates as their 3-byte form.
pub(crate) fn wtf8_reference(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::new();
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            Ok(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Err(lone) => {
                let u = lone.unpaired_surrogate();
                out.extend_from_slice(&[
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                ]);
            }
        }
    }
    out
}

proptest::proptest! {
    /// The encoder on its own, on short texts where every block
    /// boundary is near.
    #[test]
    fn the_encoder_writes_wtf8(
        units in proptest::collection::vec(proptest::prop_oneof![
            0u16..0x80, 0x80u16..0x800, 0x800u16..0xD800, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
        ], 0..80)
    ) {
        // The encoders' contract: no low half of a pair split off before.
        let want = wtf8_reference(&units);
        let mut out = vec![0xAAu8; 3 * units.len() + 1];
        let used = crate::kernels::portable::encode_wtf8(&units, &mut out);
        proptest::prop_assert_eq!(&out[..used], &want[..]);
    }
}
