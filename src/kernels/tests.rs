//! Each vector kernel against its portable reference, on inputs around
//! every vector width: the only tests that call a CPU-specific build
//! directly (the rest of the crate's tests go through the dispatcher).

#[cfg(target_arch = "x86_64")]
mod x86_64 {
    use super::super::{portable, x86_64 as vector};
    use proptest::prelude::*;

    /// Whether this CPU runs the AVX2 kernels (whatever the environment says).
    fn avx2() -> bool {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    }

    /// UTF-16 units of every kind the kernels tell apart.
    fn units(max: usize) -> impl Strategy<Value = Vec<u16>> {
        prop::collection::vec(
            prop_oneof![
                6 => 0x20u16..0x7F, 2 => Just(10u16), 1 => Just(13u16), 1 => Just(0x1Bu16), 1 => Just(0x5Eu16),
                1 => Just(0x5Bu16), 2 => 0x30u16..0x3A, 1 => 0x80u16..0x800, 2 => 0xD800u16..0xDC00,
                2 => 0xDC00u16..0xE000, 1 => 0xE000u16..=0xFFFF, 1 => prop::sample::select(vec![0x25CFu16, 0x2713, 0x00D7, 0x221A]),
            ],
            0..max,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        #[test]
        fn counts_agree(text in units(300)) {
            if avx2() {
                // SAFETY: the CPU has AVX2, checked just above.
                prop_assert_eq!(unsafe { vector::code_point_len(&text) }, portable::code_point_len(&text));
                // SAFETY: as above.
                prop_assert_eq!(unsafe { vector::count_newlines(&text) }, portable::count_newlines(&text));
            }
        }

        #[test]
        fn line_walks_and_masks_agree(text in units(300)) {
            if avx2() {
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                // SAFETY: the CPU has AVX2 and POPCNT, checked just above.
                unsafe { vector::for_each_line(&text, &mut |r, n| fast.push((r, n))) };
                portable::scan_lines(&text, &mut |r, n| slow.push((r, n)), portable::line_masks);
                prop_assert_eq!(fast, slow);
                for chunk in text.windows(33) {
                    let chunk: &[u16; 33] = chunk.try_into().expect("33 units");
                    // SAFETY: as above.
                    prop_assert_eq!(unsafe { vector::line_masks(chunk) }, portable::line_masks(chunk));
                }
            }
        }

        #[test]
        fn narrowing_agrees(text in units(200), before in prop_oneof![Just(0u16), 0x30u16..0x3A, 0x20u16..0x7F]) {
            if avx2() {
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                // SAFETY: the CPU has AVX2, checked just above.
                unsafe { vector::narrow(&text, before, &mut fast) };
                portable::narrow(&text, before, &mut slow);
                prop_assert_eq!(fast, slow);
            }
        }

        #[test]
        fn folding_agrees(text in units(200)) {
            if avx2() {
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                // SAFETY: the CPU has AVX2, checked just above.
                unsafe { vector::fold_ascii(&text, &mut fast) };
                portable::fold_ascii(&text, &mut slow);
                prop_assert_eq!(fast, slow);
            }
        }

        #[test]
        fn encoding_agrees(text in units(300)) {
            if avx2() {
                let (mut fast, mut slow) = (vec![0u8; 3 * text.len() + 1], vec![0u8; 3 * text.len() + 1]);
                // SAFETY: the CPU has AVX2; both hold three bytes a unit and one more.
                let n = unsafe { vector::encode(&text, &mut fast) };
                let m = portable::encode(&text, &mut slow);
                prop_assert_eq!(&fast[..n], &slow[..m]);
            }
        }

        #[test]
        fn plain_copies_agree(text in units(80)) {
            // SSE2 is baseline on x86-64.
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            let plain = portable::plain_bytes(&text, &mut slow);
            prop_assert_eq!(vector::plain_bytes(&text, &mut fast), plain);
            if plain {
                prop_assert_eq!(fast, slow);
            }
        }

        #[test]
        fn word_masks_agree(view in prop::collection::vec(prop_oneof![0x20u8..0x7F, Just(b'\t'), 0x30u8..0x3A, Just(b'/')], 1..150), at in 0usize..150) {
            let base = at % view.len();
            // SSE2 is baseline on x86-64.
            prop_assert_eq!(vector::word_masks(&view, base), portable::masks_swar(&view[base..(base + 64).min(view.len())]));
        }

        #[test]
        fn digit_blind_compares_agree(
            a in prop::collection::vec(prop_oneof![4 => 0x2Fu16..0x3B, 1 => 0x20u16..0x7F, 1 => 0x80u16..=0xFFFF], 16..72),
            flips in prop::collection::vec((0usize..72, 0x2Fu16..0x3B), 0..3),
        ) {
            let mut b = a.clone();
            for (at, unit) in flips {
                if let Some(u) = b.get_mut(at) {
                    *u = unit;
                }
            }
            if avx2() {
                // SAFETY: the CPU has AVX2; both are of one length, at least 16.
                prop_assert_eq!(unsafe { vector::same_but_digits(&a, &b) }, portable::same_but_digits(&a, &b));
            }
        }
    }
}
