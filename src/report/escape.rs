//! Escaping for the HTML sinks (report.html, the belt and curve sections, badges' SVG text):
//! server text never becomes markup.

pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}
