//! Word lists: an enum whose every variant has one spelling, written once
//! beside it ([`word_enum!`]), so a list of the variants or of their
//! spellings is read off the enum, never written again.

/// Declares an enum of unit variants, each written `Variant => "spelling"`,
/// with `ALL` (every variant, in declaration order) and `name()` (the
/// variant's spelling). Attributes on the enum and on each variant are kept.
macro_rules! word_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$variant_meta:meta])* $variant:ident => $word:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[$variant_meta])* $variant, )+
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: [$name; [$($word),+].len()] = [$($name::$variant),+];

            /// The variant's one spelling.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $word, )+
                }
            }
        }
    };
}

pub(crate) use word_enum;
