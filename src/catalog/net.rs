//! Network rules for every request toolgate sends with a credential (MCP over HTTP, LLM
//! providers): redirects stay on the origin the user named, and a credential sent over
//! plain `http://` to a non-loopback host is called out.

use reqwest::Url;

/// An HTTP client builder with TLS from rustls on *ring*, the one crypto backend in the binary
/// (reqwest is built without a provider of its own: the process-wide default is installed here,
/// once, before the first client is built). Every HTTP client toolgate builds starts here.
pub(crate) fn client_builder() -> reqwest::ClientBuilder {
    static TLS: std::sync::Once = std::sync::Once::new();
    TLS.call_once(|| {
        // Already set (by an embedding program) is fine: that provider is used.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
}

/// Most redirects followed within one origin.
const MAX_REDIRECTS: usize = 10;

/// A redirect policy that follows redirects only within the origin (scheme, host, port) of
/// the first request, and refuses any other with an error that names both origins: custom
/// headers (`--header x-api-key: …`, `x-api-key` for Anthropic) would otherwise be
/// forwarded to whichever host the server points at.
pub(crate) fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let Some(first) = attempt.previous().first() else {
            return attempt.follow();
        };
        if attempt.previous().len() > MAX_REDIRECTS {
            return attempt.error(format!("more than {MAX_REDIRECTS} redirects"));
        }
        if same_origin(first, attempt.url()) {
            attempt.follow()
        } else {
            let msg = cross_origin_message(first, attempt.url());
            attempt.error(msg)
        }
    })
}

/// True when both URLs share scheme, host and port.
pub(crate) fn same_origin(a: &Url, b: &Url) -> bool {
    a.origin() == b.origin()
}

fn cross_origin_message(from: &Url, to: &Url) -> String {
    format!(
        "refused a redirect from {} to another origin, {} (toolgate does not send credentials or headers across origins; point toolgate at the final URL if it is trusted)",
        from.origin().ascii_serialization(),
        to.origin().ascii_serialization()
    )
}

/// True for `localhost`, 127.0.0.0/8 and `::1`.
pub(crate) fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match host.parse::<std::net::IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => {
            let d = host.trim_end_matches('.').to_ascii_lowercase();
            d == "localhost" || d.ends_with(".localhost")
        }
    }
}

/// A warning when `what` (a key, a header) would be sent over plain `http://` to a host that
/// is not loopback: anyone on the path can read it.
pub(crate) fn plain_http_warning(url: &str, what: &str) -> Option<String> {
    let u = Url::parse(url).ok()?;
    (u.scheme() == "http" && !is_loopback(&u)).then(|| {
        format!(
            "{what} is sent over plain http:// to {} (not loopback): anyone on the network path can read it; use https://",
            u.host_str().unwrap_or("?")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_and_loopback() {
        let u = |s: &str| Url::parse(s).unwrap();
        assert!(same_origin(
            &u("http://127.0.0.1:5/a"),
            &u("http://127.0.0.1:5/b?x")
        ));
        assert!(!same_origin(
            &u("http://127.0.0.1:5/a"),
            &u("http://127.0.0.1:6/a")
        ));
        assert!(!same_origin(&u("https://h/a"), &u("http://h/a")));
        assert!(is_loopback(&u("http://localhost:3/")));
        assert!(is_loopback(&u("http://127.8.0.1/")));
        assert!(is_loopback(&u("http://[::1]:9/")));
        assert!(!is_loopback(&u("http://10.0.0.1/")));
        assert!(plain_http_warning("http://example.com/mcp", "the --header values").is_some());
        assert!(plain_http_warning("https://example.com/mcp", "x").is_none());
        assert!(plain_http_warning("http://127.0.0.1:8080/v1", "x").is_none());
    }

    #[tokio::test]
    async fn same_origin_redirects_are_followed_and_others_refused() {
        use wiremock::matchers::path;
        use wiremock::{Mock, MockServer, ResponseTemplate};
        let a = MockServer::start().await;
        let b = MockServer::start().await;
        Mock::given(path("/old"))
            .respond_with(ResponseTemplate::new(307).insert_header("location", "/new"))
            .mount(&a)
            .await;
        Mock::given(path("/new"))
            .respond_with(ResponseTemplate::new(200).set_body_string("ok"))
            .mount(&a)
            .await;
        let to_b = format!("{}/steal", b.uri());
        Mock::given(path("/away"))
            .respond_with(ResponseTemplate::new(307).insert_header("location", to_b.as_str()))
            .mount(&a)
            .await;
        let client = super::client_builder()
            .redirect(same_origin_redirects())
            .build()
            .unwrap();
        let r = client.get(format!("{}/old", a.uri())).send().await.unwrap();
        assert_eq!(r.text().await.unwrap(), "ok");
        let e = client
            .get(format!("{}/away", a.uri()))
            .header("x-api-key", "k")
            .send()
            .await
            .unwrap_err();
        assert!(format!("{e:?}").contains("another origin"), "{e:?}");
        assert!(b.received_requests().await.unwrap().is_empty());
    }
}
