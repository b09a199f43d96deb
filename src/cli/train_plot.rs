//! The training curve of `mancala train a3c` as SVG: win rates against
//! `random` and `greedy` above, the loss parts below, both against the
//! games trained.

use std::fmt::Write;
use std::path::Path;

use mancala_solver::error::{Error, Result};

use super::svg::xml_escape;

/// The curve file's header.
pub const CURVE_HEADER: &str = "episodes,seconds,win_pct_vs_random,draw_pct_vs_random,\
win_pct_vs_greedy,draw_pct_vs_greedy,value_loss,policy_loss,entropy";

/// One row of the curve file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurveRow {
    /// Games trained.
    pub episodes: f64,
    /// Seconds since the run started.
    pub seconds: f64,
    /// Win percentage against random.
    pub vs_random: f64,
    /// Win percentage against greedy.
    pub vs_greedy: f64,
    /// Mean value loss.
    pub value_loss: f64,
    /// Mean policy loss.
    pub policy_loss: f64,
    /// Mean policy entropy.
    pub entropy: f64,
}

/// Largest curve file read (a row is about 60 bytes, one per evaluation).
pub const MAX_CURVE_BYTES: u64 = 1 << 28;

/// Read a curve file written by `train a3c --curve`.
pub fn read_curve(path: &Path) -> Result<Vec<CurveRow>> {
    let bad = |line: usize, reason: String| Error::BadInputFile {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let bytes = mancala_solver::files::read_limited(path, MAX_CURVE_BYTES, "a training curve")?;
    let text =
        String::from_utf8(bytes).map_err(|_| bad(1, "not a training curve: not text".into()))?;
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some(CURVE_HEADER) {
        return Err(bad(
            1,
            format!("not a training curve: the first line is not \"{CURVE_HEADER}\""),
        ));
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: Vec<f64> = line
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| bad(i + 2, "a field is not a number".into()))?;
        if v.len() != 9 {
            return Err(bad(
                i + 2,
                format!("{} fields; a row has 9 numbers", v.len()),
            ));
        }
        let names = CURVE_HEADER.split(',');
        for (x, name) in v.iter().zip(names) {
            let percent = name.contains("_pct_vs_");
            // The policy loss (minus the log-probability times the
            // advantage) may be negative; every other column may not.
            let signed = name == "policy_loss";
            if !x.is_finite() || (!signed && *x < 0.0) || (percent && *x > 100.0) {
                let range = match (percent, signed) {
                    (true, _) => "; it runs from 0 to 100",
                    (false, false) => "; it is 0 or more",
                    (false, true) => ", not a finite number",
                };
                return Err(bad(i + 2, format!("{name} is {x}{range}")));
            }
        }
        rows.push(CurveRow {
            episodes: v[0],
            seconds: v[1],
            vs_random: v[2],
            vs_greedy: v[4],
            value_loss: v[6],
            policy_loss: v[7],
            entropy: v[8],
        });
    }
    if rows.is_empty() {
        return Err(bad(2, "no data row".into()));
    }
    Ok(rows)
}

/// A count of games for an axis: `250k`, `1.5M`.
fn short(n: f64) -> String {
    if n >= 1e6 {
        format!("{}M", (n / 1e5).round() / 10.0)
    } else if n >= 1e3 {
        format!("{}k", (n / 1e2).round() / 10.0)
    } else {
        format!("{n}")
    }
}

/// A "nice" step for about `ticks` ticks over `span`.
fn nice_step(span: f64, ticks: f64) -> f64 {
    let raw = (span / ticks).max(1e-12);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// The curve as an SVG document: a panel of win percentages (`random`
/// blue, `greedy` orange, 0 to 100%) and a panel of the loss parts (value
/// loss, policy loss, entropy on one scale), sharing the x axis of games
/// trained. Each line is a `<polyline class="...">` with a `<title>`.
pub fn curve_svg(rows: &[CurveRow]) -> String {
    let (left, right, top) = (70.0, 170.0, 50.0);
    let (plot_w, win_h, gap, loss_h, bottom) = (640.0, 260.0, 50.0, 160.0, 50.0);
    let width = left + plot_w + right;
    let height = top + win_h + gap + loss_h + bottom;
    let x_max = rows.iter().map(|r| r.episodes).fold(1.0, f64::max);
    let x_of = |e: f64| left + plot_w * e / x_max;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>"#
    );
    let last = rows.last().expect("a row");
    let title = format!(
        "A3C self-play, Kalah(6,4): {} games in {:.0} min; last {:.0}% wins v random, {:.0}% v greedy",
        last.episodes,
        last.seconds / 60.0,
        last.vs_random,
        last.vs_greedy
    );
    let _ = writeln!(
        s,
        r#"<title>{t}</title><text class="title" x="{left}" y="25" font-size="15">{t}</text>"#,
        t = xml_escape(&title)
    );
    // The two panels' frames and y ticks.
    let win_y = |pct: f64| top + win_h * (1.0 - pct / 100.0);
    let loss_top = top + win_h + gap;
    let loss_vals = rows
        .iter()
        .flat_map(|r| [r.value_loss, r.policy_loss, r.entropy]);
    let lo = loss_vals.clone().fold(0.0, f64::min);
    let hi = loss_vals.fold(lo + 1e-9, f64::max);
    let loss_y = |v: f64| loss_top + loss_h * (1.0 - (v - lo) / (hi - lo));
    let _ = writeln!(s, r#"<g class="axes" stroke="black" fill="none">"#);
    for (y0, h) in [(top, win_h), (loss_top, loss_h)] {
        let _ = writeln!(
            s,
            r#"<rect x="{left}" y="{y0}" width="{plot_w}" height="{h}"/>"#
        );
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, r#"<g class="y-ticks" text-anchor="end">"#);
    for pct in (0..=100).step_by(20) {
        let y = win_y(pct as f64);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}">{pct}%</text>"##,
            left + plot_w,
            left - 6.0,
            y + 4.0
        );
    }
    let step = nice_step(hi - lo, 4.0);
    let mut v = (lo / step).ceil() * step;
    while v <= hi + 1e-12 {
        let y = loss_y(v);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}">{}</text>"##,
            left + plot_w,
            left - 6.0,
            y + 4.0,
            // + 0.0 turns -0 into 0.
            (v * 1000.0).round() / 1000.0 + 0.0
        );
        v += step;
    }
    let _ = writeln!(s, "</g>");
    // X ticks under both panels.
    let _ = writeln!(s, r#"<g class="x-ticks" text-anchor="middle">"#);
    let step = nice_step(x_max, 6.0);
    let mut e = 0.0;
    while e <= x_max + 1e-9 {
        let x = x_of(e);
        for y in [top + win_h, loss_top + loss_h] {
            let _ = writeln!(
                s,
                r#"<line x1="{x:.1}" y1="{y:.1}" x2="{x:.1}" y2="{:.1}" stroke="black"/><text x="{x:.1}" y="{:.1}">{}</text>"#,
                y + 5.0,
                y + 18.0,
                short(e)
            );
        }
        e += step;
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(
        s,
        r#"<text class="y-label" transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle">wins, greedy by policy</text>
<text class="y-label" transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle">loss parts</text>
<text class="x-label" x="{:.1}" y="{:.1}" text-anchor="middle">self-play games trained</text>"#,
        top + win_h / 2.0,
        loss_top + loss_h / 2.0,
        left + plot_w / 2.0,
        height - 10.0
    );
    // The lines and the legend.
    type Pick = fn(&CurveRow) -> f64;
    let series: [(&str, &str, &str, Pick, bool); 5] = [
        (
            "vs-random",
            "#1565c0",
            "v random (% wins)",
            |r| r.vs_random,
            true,
        ),
        (
            "vs-greedy",
            "#ef6c00",
            "v greedy (% wins)",
            |r| r.vs_greedy,
            true,
        ),
        (
            "value-loss",
            "#6a1b9a",
            "value loss",
            |r| r.value_loss,
            false,
        ),
        (
            "policy-loss",
            "#2e7d32",
            "policy loss",
            |r| r.policy_loss,
            false,
        ),
        ("entropy", "#757575", "policy entropy", |r| r.entropy, false),
    ];
    for (i, (class, color, label, pick, is_win)) in series.iter().enumerate() {
        let points: Vec<String> = rows
            .iter()
            .map(|r| {
                let y = if *is_win {
                    win_y(pick(r))
                } else {
                    loss_y(pick(r))
                };
                format!("{:.1},{y:.1}", x_of(r.episodes))
            })
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline class="{class}" fill="none" stroke="{color}" stroke-width="2" points="{}"><title>{}</title></polyline>"#,
            points.join(" "),
            xml_escape(label)
        );
        let lx = left + plot_w + 15.0;
        let ly = if *is_win { top } else { loss_top } + 20.0 * (i % 3) as f64 + 10.0;
        let ly = if *is_win {
            ly
        } else {
            loss_top + 20.0 * (i - 2) as f64 + 10.0
        };
        let _ = writeln!(
            s,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{color}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            lx + 20.0,
            lx + 26.0,
            ly + 4.0,
            xml_escape(label)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_draws_as_well_formed_svg() {
        let rows: Vec<CurveRow> = (1..=5)
            .map(|i| CurveRow {
                episodes: 1000.0 * i as f64,
                seconds: 10.0 * i as f64,
                vs_random: 50.0 + 9.0 * i as f64,
                vs_greedy: 5.0 * i as f64,
                value_loss: 0.5 / i as f64,
                policy_loss: -0.01 * i as f64,
                entropy: 1.7 - 0.2 * i as f64,
            })
            .collect();
        let svg = curve_svg(&rows);
        assert!(svg.starts_with("<?xml"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 5);
        assert!(!svg.contains("NaN"));
    }
}
