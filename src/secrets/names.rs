//! Which variable names say they hold a credential.

/// True when a variable's name says it holds a credential (`…KEY…`, `…TOKEN…`, `…SECRET…`,
/// `…PASSWORD…`, `…CREDENTIAL…`, `…AUTH…`). Used to decide which values to mask.
pub(crate) fn looks_secret(name: &str) -> bool {
    // `GIT_AUTHOR_EMAIL` names an author, not an authorization.
    let n = name.to_ascii_uppercase().replace("AUTHOR", "");
    [
        "KEY",
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "CREDENTIAL",
        "AUTH",
    ]
    .iter()
    .any(|w| n.contains(w))
}
