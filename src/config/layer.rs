//! The one way a setting is merged from its layers: the flags' layer (flags and `TOOLGATE_*`
//! variables) over toolgate.toml's, field by field. `ci`'s settings and every command's
//! connection settings use it; a list that adds up across layers (headers, `pass_env`, the
//! sandbox's paths) is chained instead, the file's first.

/// `layered!(flags, file, field)`: the flags' value of `field`, else the file's (both are
/// `Option`s of a `Clone` value).
macro_rules! layered {
    ($flags:expr, $file:expr, $field:ident) => {
        $flags.$field.clone().or_else(|| $file.$field.clone())
    };
}

pub(crate) use layered;

#[cfg(test)]
mod tests {
    #[derive(Default)]
    struct L {
        a: Option<u32>,
        b: Option<String>,
    }

    #[test]
    fn the_flags_layer_wins_field_by_field() {
        let flags = L {
            a: Some(1),
            b: None,
        };
        let file = L {
            a: Some(2),
            b: Some("f".into()),
        };
        assert_eq!(layered!(flags, file, a), Some(1));
        assert_eq!(layered!(flags, file, b).as_deref(), Some("f"));
        let none = L::default();
        assert_eq!(layered!(none, none, a), None);
    }
}
