//! Name-aware vocabularies: realistic values for a property given its name ("Ana Souza" for
//! `assignee`, "invoice-2291.pdf" for `filename`), so generated requests read like a user's.

use rand::{Rng, RngExt};

pub(crate) const PEOPLE: &[(&str, &str)] = &[
    ("Ana", "Souza"),
    ("Dana", "Levi"),
    ("Kwame", "Mensah"),
    ("Priya", "Nair"),
    ("Lucas", "Martin"),
    ("Mei", "Chen"),
    ("Omar", "Haddad"),
    ("Sofia", "Rossi"),
    ("Jonas", "Berg"),
    ("Aisha", "Bello"),
];
const CITIES: &[&str] = &[
    "Lisbon",
    "Nairobi",
    "Osaka",
    "Toronto",
    "Berlin",
    "São Paulo",
    "Melbourne",
    "Chicago",
];
const COUNTRIES: &[(&str, &str)] = &[
    ("Portugal", "PT"),
    ("Kenya", "KE"),
    ("Japan", "JP"),
    ("Canada", "CA"),
    ("Germany", "DE"),
];
const TITLES: &[&str] = &[
    "Quarterly planning review",
    "Fix login timeout on mobile",
    "Onboarding checklist for new hires",
    "Renew the office lease",
    "Customer feedback summary",
    "Migrate billing to the new API",
];
const SENTENCES: &[&str] = &[
    "Please take a look before Friday.",
    "The client asked for the revised numbers.",
    "Remember to include the signed contract.",
    "This came up in the weekly sync.",
    "Only the finance team should see this.",
    "Follow up with the vendor about the delay.",
];
const QUERIES: &[&str] = &[
    "overdue invoices",
    "budget 2026",
    "onboarding",
    "login error",
    "contract renewal",
    "team offsite",
];
const FILES: &[&str] = &[
    "reports/invoice-2291.pdf",
    "notes/meeting-2026-05-08.md",
    "src/main.rs",
    "data/customers.csv",
    "docs/roadmap.txt",
];
const TAGS: &[&str] = &["urgent", "finance", "follow-up", "backend", "design", "q3"];
const WORDS: &[&str] = &[
    "harbor", "maple", "orbit", "cedar", "falcon", "ember", "delta", "willow",
];

fn pick<'a, R: Rng>(rng: &mut R, items: &[&'a str]) -> &'a str {
    items[rng.random_range(0..items.len() as u64) as usize]
}

fn person<R: Rng>(rng: &mut R) -> (&'static str, &'static str) {
    PEOPLE[rng.random_range(0..PEOPLE.len() as u64) as usize]
}

/// A date in 2026 as `YYYY-MM-DD`.
pub(crate) fn date<R: Rng>(rng: &mut R) -> String {
    format!(
        "2026-{:02}-{:02}",
        rng.random_range(1..13u32),
        rng.random_range(1..29u32)
    )
}

/// An RFC 3339 `full-time` (what JSON Schema's `format: time` means): with its offset.
pub(crate) fn time<R: Rng>(rng: &mut R) -> String {
    format!("{}Z", clock(rng))
}

/// A time of day on the quarter hour, `HH:MM:00`.
fn clock<R: Rng>(rng: &mut R) -> String {
    format!(
        "{:02}:{:02}:00",
        rng.random_range(8..19u32),
        [0, 15, 30, 45][rng.random_range(0..4u64) as usize]
    )
}

pub(crate) fn date_time<R: Rng>(rng: &mut R) -> String {
    format!("{}T{}Z", date(rng), clock(rng))
}

pub(crate) fn email<R: Rng>(rng: &mut R) -> String {
    let (f, l) = person(rng);
    format!("{}.{}@example.com", f.to_lowercase(), l.to_lowercase())
}

pub(crate) fn uuid<R: Rng>(rng: &mut R) -> String {
    let hex = |rng: &mut R, n: usize| {
        (0..n)
            .map(|_| char::from_digit(rng.random_range(0..16u32), 16).unwrap_or('0'))
            .collect::<String>()
    };
    format!(
        "{}-{}-4{}-a{}-{}",
        hex(rng, 8),
        hex(rng, 4),
        hex(rng, 3),
        hex(rng, 3),
        hex(rng, 12)
    )
}

/// An identifier for an entity named by `name` (`invoice_id` → `inv_2291`).
pub(crate) fn identifier<R: Rng>(rng: &mut R, name: &str) -> String {
    let words = crate::text::name_words(name);
    let entity = words
        .iter()
        .find(|w| *w != "id" && *w != "ids")
        .map(String::as_str)
        .unwrap_or("item");
    let prefix: String = entity.chars().take(3).collect();
    format!("{prefix}_{}", rng.random_range(1000..9999u32))
}

/// A realistic string for a property called `name`.
pub(crate) fn string_for<R: Rng>(rng: &mut R, name: &str) -> String {
    let words = crate::text::name_words(name);
    let has = |w: &[&str]| words.iter().any(|x| w.contains(&x.as_str()));
    let last = words.last().map(String::as_str).unwrap_or("");
    if has(&["email", "mail"]) {
        return email(rng);
    }
    if last == "id" || last == "ids" || last == "uuid" || name.ends_with("Id") {
        return identifier(rng, name);
    }
    if has(&["url", "uri", "link", "href", "website", "endpoint"]) {
        return format!(
            "https://example.com/{}/{}",
            pick(rng, WORDS),
            rng.random_range(10..999u32)
        );
    }
    if has(&[
        "path",
        "file",
        "filename",
        "filepath",
        "dir",
        "directory",
        "folder",
    ]) {
        return pick(rng, FILES).to_string();
    }
    if has(&[
        "datetime",
        "timestamp",
        "start",
        "end",
        "since",
        "until",
        "due",
        "deadline",
        "at",
    ]) {
        return date_time(rng);
    }
    if has(&["date", "day", "birthday"]) {
        return date(rng);
    }
    if has(&["time"]) {
        return time(rng);
    }
    if has(&["first"]) && has(&["name"]) {
        return person(rng).0.to_string();
    }
    if has(&["last", "surname", "family"]) {
        return person(rng).1.to_string();
    }
    if has(&[
        "name",
        "author",
        "assignee",
        "owner",
        "user",
        "username",
        "attendee",
        "recipient",
        "person",
        "contact",
        "customer",
        "sender",
    ]) {
        let (f, l) = person(rng);
        return format!("{f} {l}");
    }
    if has(&[
        "city",
        "location",
        "place",
        "destination",
        "origin",
        "address",
    ]) {
        return pick(rng, CITIES).to_string();
    }
    if has(&["country"]) {
        let c = COUNTRIES[rng.random_range(0..COUNTRIES.len() as u64) as usize];
        return if has(&["code"]) {
            c.1.to_string()
        } else {
            c.0.to_string()
        };
    }
    if has(&["timezone", "tz"]) {
        return pick(
            rng,
            &[
                "Europe/Lisbon",
                "Africa/Nairobi",
                "Asia/Tokyo",
                "America/Toronto",
            ],
        )
        .to_string();
    }
    worded(rng, &has)
}

/// A realistic string for the kinds of property `string_for` did not place by name: phone,
/// currency, language, title, query, tag, status, priority, repository, branch, colour,
/// free text, room; else two words.
fn worded<R: Rng>(rng: &mut R, has: &dyn Fn(&[&str]) -> bool) -> String {
    if has(&["phone", "mobile"]) {
        return format!(
            "+351 91{} {:03} {:03}",
            rng.random_range(0..10u32),
            rng.random_range(0..1000u32),
            rng.random_range(0..1000u32)
        );
    }
    if has(&["currency"]) {
        return pick(rng, &["EUR", "USD", "KES", "JPY"]).to_string();
    }
    if has(&["language", "lang", "locale"]) {
        return pick(rng, &["en", "pt", "ja", "de"]).to_string();
    }
    if has(&[
        "title", "subject", "summary", "headline", "topic", "purpose",
    ]) {
        return pick(rng, TITLES).to_string();
    }
    if has(&[
        "query", "search", "q", "keyword", "keywords", "term", "filter", "pattern",
    ]) {
        return pick(rng, QUERIES).to_string();
    }
    if has(&["tag", "label", "category", "type", "kind"]) {
        return pick(rng, TAGS).to_string();
    }
    if has(&["status", "state"]) {
        return pick(rng, &["open", "in progress", "done"]).to_string();
    }
    if has(&["priority", "severity"]) {
        return pick(rng, &["high", "medium", "low"]).to_string();
    }
    if has(&["repo", "repository"]) {
        return format!("acme/{}", pick(rng, WORDS));
    }
    if has(&["branch"]) {
        return pick(rng, &["main", "release/2026.5", "fix/login-timeout"]).to_string();
    }
    if has(&["color", "colour"]) {
        return pick(rng, &["blue", "green", "amber"]).to_string();
    }
    if has(&[
        "message",
        "body",
        "content",
        "text",
        "description",
        "note",
        "notes",
        "comment",
        "reason",
        "agenda",
        "details",
    ]) {
        return pick(rng, SENTENCES).to_string();
    }
    if has(&["room"]) {
        return pick(rng, &["Orion", "Vega", "Lyra"]).to_string();
    }
    format!("{}-{}", pick(rng, WORDS), pick(rng, WORDS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn names_pick_fitting_values() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert!(string_for(&mut rng, "assigneeEmail").ends_with("@example.com"));
        assert!(string_for(&mut rng, "invoice_id").starts_with("inv_"));
        assert!(
            string_for(&mut rng, "city")
                .chars()
                .next()
                .unwrap()
                .is_uppercase()
        );
        assert_eq!(
            string_for(&mut rng, "due_date").len(),
            "2026-05-08T10:00:00Z".len()
        );
        assert_eq!(date(&mut rng).len(), 10);
    }
}
