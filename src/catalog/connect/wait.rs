//! Waiting for an HTTP service that is still starting. A job's service container, or a server
//! started in the step before, often refuses connections for a few seconds after the job's
//! steps begin; toolgate retries a *refused* TCP connection until `--connect-timeout` runs
//! out instead of failing at once. Any other outcome (a listener, a name that does not
//! resolve, a timeout, a proxy in the environment) goes on at once, and the connect that
//! follows reports it.

use std::time::{Duration, Instant};

use tokio::net::TcpStream;

/// The first pause between tries; it doubles up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(100);
const MAX_PAUSE: Duration = Duration::from_secs(1);

/// What waiting found.
#[derive(Clone, Debug, PartialEq)]
pub enum Waited {
    /// Something accepts connections (or the probe does not apply): connect as usual.
    Go,
    /// Every try was refused until the time ran out.
    StillRefused { at: String, secs: f64 },
}

/// `host:port` of an http(s) URL, or `None` when the probe does not apply (no host, or a
/// proxy variable set: the connection then goes to the proxy, not to the host).
fn target(url: &str) -> Option<(String, u16)> {
    let proxied = ["HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some() || std::env::var_os(v.to_lowercase()).is_some());
    if proxied {
        return None;
    }
    let u = reqwest::Url::parse(url).ok()?;
    if !matches!(u.scheme(), "http" | "https") {
        return None;
    }
    let port = u.port_or_known_default()?;
    // An IPv6 literal comes bracketed: the socket address wants it bare.
    let host = u.host_str()?.trim_start_matches('[').trim_end_matches(']');
    let host = host.to_string();
    Some((host, port))
}

/// Retries a refused connection to `url`'s host and port until `within` has passed.
pub async fn until_listening(url: &str, within: Duration) -> Waited {
    let Some((host, port)) = target(url) else {
        return Waited::Go;
    };
    let start = Instant::now();
    let deadline = start + within;
    let mut pause = FIRST_PAUSE;
    let at = if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    let tries = async {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, TcpStream::connect((host.as_str(), port))).await {
                Ok(Err(e)) if e.kind() == std::io::ErrorKind::ConnectionRefused => {}
                _ => return Waited::Go,
            }
            if Instant::now() + pause >= deadline {
                return Waited::StillRefused {
                    at: at.clone(),
                    secs: start.elapsed().as_secs_f64(),
                };
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(MAX_PAUSE);
        }
    };
    crate::progress::while_slow(
        &format!("waiting for {at} to accept connections (a service still starting?)"),
        tries,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn targets() {
        assert_eq!(
            target("http://localhost:3001/mcp"),
            Some(("localhost".into(), 3001))
        );
        assert_eq!(
            target("https://example.com/mcp"),
            Some(("example.com".into(), 443))
        );
        assert_eq!(target("http://[::1]:8080/mcp"), Some(("::1".into(), 8080)));
        assert_eq!(target("file:///x"), None);
        assert_eq!(target("not a url"), None);
    }

    #[test]
    fn a_listener_goes_at_once_and_a_closed_port_waits_its_time() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}/mcp");
        assert_eq!(
            run(until_listening(&url, Duration::from_secs(5))),
            Waited::Go
        );
        drop(listener);
        let w = run(until_listening(&url, Duration::from_millis(700)));
        assert!(
            matches!(&w, Waited::StillRefused { at, .. } if at == &format!("127.0.0.1:{port}")),
            "{w:?}"
        );
    }

    #[test]
    fn a_service_that_starts_late_is_waited_for() {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = probe.local_addr().unwrap().port();
        drop(probe);
        let late = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(600));
            let l = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap();
            let _ = l.accept();
        });
        let url = format!("http://127.0.0.1:{port}/mcp");
        assert_eq!(
            run(until_listening(&url, Duration::from_secs(20))),
            Waited::Go
        );
        late.join().unwrap();
    }
}
