//! Converting between a frozen v1 type and its live twin, field for field.

pub(super) fn each<A, B: From<A>>(v: Vec<A>) -> Vec<B> {
    v.into_iter().map(Into::into).collect()
}

/// Both directions of a field-for-field conversion between a frozen type and its live twin:
/// fields before `;` convert with `Into`, fields after it element by element.
macro_rules! both_ways {
    ($a:ident <-> $b:ident { $($one:ident),* ; $($many:ident),* }) => {
        impl From<$a> for $b {
            fn from(v: $a) -> Self {
                $b { $($one: v.$one.into(),)* $($many: super::convert::each(v.$many),)* }
            }
        }
        impl From<$b> for $a {
            fn from(v: $b) -> Self {
                $a { $($one: v.$one.into(),)* $($many: super::convert::each(v.$many),)* }
            }
        }
    };
}
