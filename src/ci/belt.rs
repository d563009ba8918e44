//! `toolgate ci --belt`: your catalog's lock and lint as always, the evaluation inside the
//! belt (your tools beside the belt's), the gate on your tasks' scores there.

use crate::catalog::Catalog;
use crate::eval::belt::BeltInfo;
use crate::eval::{self, EvalOptions};
use crate::tasks::Task;

/// A belt to evaluate in: the combined catalog (yours plus the belt's tools) and its record.
pub struct BeltRun {
    pub catalog: Catalog,
    pub info: BeltInfo,
}

/// Before the belt run: deterministic models also run on your catalog `own` alone (in
/// memory), so the reports set the belt against it.
pub async fn prepare(
    belt: &mut BeltRun,
    own: &Catalog,
    tasks: &[Task],
    opts: &EvalOptions,
) -> anyhow::Result<()> {
    belt.info.alone = eval::belt::alone(own, tasks, &opts.models, &opts.model).await?;
    Ok(())
}

/// A notice when the base ran in another belt (or none) than this run: the comparison then
/// measures the belt's change too.
pub fn base_notice(base: &crate::eval::RunFile, head: Option<&BeltInfo>) -> Option<String> {
    let (b, h) = (
        base.belt.as_ref().map(|b| b.spec.as_str()),
        head.map(|b| b.spec.as_str()),
    );
    let say = |s: Option<&str>| match s {
        None => "without a belt".to_string(),
        Some(s) => format!("in the belt `{s}`"),
    };
    (b != h).then(|| {
        format!(
            "The base ran {} and this run {}: the comparison with the base measures the belt's effect too, not only this change.",
            say(b),
            say(h)
        )
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_base_in_another_belt_is_named() {
        let run = |belt: Option<&str>| {
            let mut r = crate::eval::v1::from_text(
                r#"{"schema_version":"toolgate.run/v1","toolgate_version":"0","created":"",
                "status":"complete","catalog":{"source":"s","sha256":"0","tools":[]},
                "suite":{"path":"t","sha256":"0","tasks":0,"by_kind":{}},"models":[],
                "trials":1,"split":"all"}"#,
            )
            .unwrap();
            r.belt = belt.map(|s| super::BeltInfo {
                spec: s.into(),
                ..Default::default()
            });
            r
        };
        let eco = run(Some("ecosystem"));
        assert_eq!(super::base_notice(&eco, eco.belt.as_ref()), None);
        let n = super::base_notice(&run(None), eco.belt.as_ref()).unwrap();
        assert!(
            n.contains("without a belt") && n.contains("`ecosystem`"),
            "{n}"
        );
        assert!(super::base_notice(&eco, None).is_some());
        assert_eq!(super::base_notice(&run(None), None), None);
    }
}
