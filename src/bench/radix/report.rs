//! The radix benchmark's results out: the printed table (ours, and the peer's beside it) and
//! the JSON file.

use super::rows::{Peers, Row};
use crate::gpu::Gpu;
use anyhow::Context;

/// The peer's row of the same length, distribution and kind.
pub(super) fn peer_of<'a>(row: &Row, peers: &'a Peers) -> Option<&'a Row> {
    peers.rows.iter().find(|p| p.len == row.len && p.distribution == row.distribution && p.pairs == row.pairs)
}

/// Our throughput over the peer's, where both results are correct.
pub(super) fn ratio(row: &Row, peers: Option<&Peers>) -> Option<f64> {
    let peer = peer_of(row, peers?)?;
    Some(row.rate_g()? / peer.rate_g()?)
}

/// The table: one line per path, length and distribution; with peers, their lines follow
/// ours, and ours gain a column of our throughput over the peer's.
pub(super) fn print_table(rows: &[Row], peers: Option<&Peers>) {
    // Without peers the ratio columns are left out: these are empty.
    let (ratio_head, ratio_rule) = match peers {
        Some(peers) => {
            println!("peer: {}", peers.description);
            (format!(" ours / {} |", peers.name), " ---: |")
        }
        None => (String::new(), ""),
    };
    println!(
        "| sort | keys | distribution | keys only, ms | G keys/s |{ratio_head} pairs, ms | G pairs/s |{ratio_head}"
    );
    println!("| --- | ---: | --- | ---: | ---: |{ratio_rule} ---: | ---: |{ratio_rule}");
    let peer_rows = peers.map_or(&[][..], |p| &p.rows[..]);
    let ours = rows.chunks(2).map(|pair| (pair, true));
    for (pair, is_ours) in ours.chain(peer_rows.chunks(2).map(|pair| (pair, false))) {
        let (k, p) = (&pair[0], &pair[1]);
        let cell = |r: &Row| match (peers, ratio(r, peers)) {
            (None, _) => String::new(),
            (Some(_), Some(x)) if is_ours => format!(" {x:.2}x |"),
            (Some(_), _) => String::from(" - |"),
        };
        println!(
            "| {} | 2^{} | {} | {} | {} |{} {} | {} |{}",
            k.who,
            k.len.trailing_zeros(),
            k.distribution.name(),
            k.ms_cell(),
            k.rate_cell(),
            cell(k),
            p.ms_cell(),
            p.rate_cell(),
            cell(p)
        );
    }
    for r in peer_rows.iter().filter(|r| r.wrong.is_some()) {
        println!("{}: {}: {}", r.label(), r.rate_cell(), r.wrong.as_deref().unwrap_or_default());
    }
}

/// `text` as the inside of a JSON string.
pub(super) fn json_escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' => String::from("\\\""),
            '\\' => String::from("\\\\"),
            c if c.is_control() => format!("\\u{:04x}", u32::from(c)),
            c => c.to_string(),
        })
        .collect()
}

/// Writes every row as JSON; with peers, ours gain `vs_<peer>` (our throughput over theirs,
/// `null` where either is missing or wrong) and the peer's rows say whether they were correct.
pub(super) fn write_json(
    path: &std::path::Path,
    gpu: &Gpu,
    runs: u32,
    rows: &[Row],
    peers: Option<&Peers>,
) -> anyhow::Result<()> {
    let number = |x: Option<f64>, digits: usize| x.map_or(String::from("null"), |x| format!("{x:.digits$}"));
    let entry = |r: &Row, extra: String| {
        format!(
            "  {{\"sort\": \"{}\", \"len\": {}, \"distribution\": \"{}\", \"pairs\": {}, \"median_ms\": {}, \"g_per_s\": {}{extra}}}",
            json_escape(&r.who),
            r.len,
            r.distribution.name(),
            r.pairs,
            number(r.time.map(|t| t.as_secs_f64() * 1e3), 6),
            number(r.rate_g(), 4),
        )
    };
    let mut entries: Vec<String> = rows
        .iter()
        .map(|r| {
            let extra = peers
                .map_or(String::new(), |p| format!(", \"vs_{}\": {}", p.name, number(ratio(r, Some(p)), 4)));
            entry(r, extra)
        })
        .collect();
    let mut header = String::new();
    if let Some(peers) = peers {
        header = format!(", \"peer\": \"{}\"", json_escape(&peers.description));
        entries.extend(peers.rows.iter().map(|r| {
            let error =
                r.wrong.as_ref().map_or(String::new(), |w| format!(", \"error\": \"{}\"", json_escape(w)));
            entry(r, format!(", \"correct\": {}{error}", r.wrong.is_none()))
        }));
    }
    let json = format!(
        "{{\"gpu\": \"{}\", \"runs\": {runs}{header}, \"results\": [\n{}\n]}}\n",
        gpu.describe().replace('"', "'"),
        entries.join(",\n")
    );
    std::fs::write(path, json).with_context(|| format!("cannot write '{}'", path.display()))
}
