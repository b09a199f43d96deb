//! The game-graph plot (`mancala graph --plot FILE.svg`).

use std::fmt::Write;

use mancala_solver::kalah::graph::GraphReport;

/// Escape text for XML.
pub(super) fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Draw the Win/Loss/Draw shares for South of every layer as a stacked bar
/// chart in SVG: one `<g class="layer">` per layer (ordered as in the
/// report) holding its three bars, a y axis in percent with its label, an x
/// axis labelled with the layers `p,q`, a title and a legend.
pub fn plot_svg(report: &GraphReport) -> String {
    const COLORS: [(&str, &str); 3] =
        [("win", "#2e7d32"), ("loss", "#c62828"), ("draw", "#9e9e9e")];
    let n = report.layers.len().max(1);
    let left = 70.0;
    let top = 60.0;
    let plot_h = 300.0;
    let bar_w: f64 = if n <= 40 {
        18.0
    } else {
        (1200.0 / n as f64).max(3.0)
    };
    let step = bar_w * 1.25;
    let plot_w = (step * n as f64).max(300.0);
    let bottom = 90.0;
    let width = left + plot_w + 170.0;
    let height = top + plot_h + bottom;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let [w, l, d] = report.shares();
    let title = format!(
        "Kalah({},{}) game graph: {} positions, South wins {w:.1}% / loses {l:.1}% / draws {d:.1}% ({} rules)",
        report.pits, report.seeds, report.positions, report.rules
    );
    let _ = writeln!(
        s,
        r#"<title>{}</title>
<text class="title" x="{left}" y="25" font-size="15">{}</text>"#,
        xml_escape(&title),
        xml_escape(&title)
    );
    // Axes.
    let y0 = top + plot_h;
    let _ = writeln!(s, r#"<g class="axes" stroke="black" fill="none">"#);
    let _ = writeln!(
        s,
        r#"<line x1="{left}" y1="{top}" x2="{left}" y2="{y0}"/><line x1="{left}" y1="{y0}" x2="{:.1}" y2="{y0}"/>"#,
        left + plot_w
    );
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, r#"<g class="y-ticks" text-anchor="end">"#);
    for t in 0..=4 {
        let pct = 25 * t;
        let y = y0 - plot_h * pct as f64 / 100.0;
        let _ = writeln!(
            s,
            r#"<line x1="{:.1}" y1="{y:.1}" x2="{left}" y2="{y:.1}" stroke="black"/><text x="{:.1}" y="{:.1}">{pct}%</text>"#,
            left - 5.0,
            left - 8.0,
            y + 4.0
        );
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(
        s,
        r#"<text class="y-label" transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle">share of the layer's positions (South's result)</text>"#,
        top + plot_h / 2.0
    );
    let _ = writeln!(
        s,
        r#"<text class="x-label" x="{:.1}" y="{:.1}" text-anchor="middle">layer g(p, q): p seeds in South's store, q in North's, ordered by p + q</text>"#,
        left + plot_w / 2.0,
        height - 12.0
    );
    // Bars, one group per layer.
    let label_every = (n as f64 / 40.0).ceil().max(1.0) as usize;
    for (i, layer) in report.layers.iter().enumerate() {
        let x = left + step * i as f64 + (step - bar_w) / 2.0;
        let _ = writeln!(
            s,
            r#"<g class="layer" data-p="{}" data-q="{}" data-positions="{}">"#,
            layer.p, layer.q, layer.positions
        );
        let _ = writeln!(
            s,
            "<title>g({},{}): {} positions, {} won, {} lost, {} drawn for South</title>",
            layer.p, layer.q, layer.positions, layer.win, layer.loss, layer.draw
        );
        let total = layer.positions.max(1) as f64;
        let mut y = y0;
        for (count, (name, color)) in [layer.win, layer.loss, layer.draw].into_iter().zip(COLORS) {
            let h = plot_h * count as f64 / total;
            y -= h;
            let _ = writeln!(
                s,
                r#"<rect class="{name}" x="{x:.2}" y="{y:.2}" width="{bar_w:.2}" height="{h:.2}" fill="{color}"/>"#
            );
        }
        if i % label_every == 0 {
            let lx = x + bar_w / 2.0;
            let ly = y0 + 10.0;
            let _ = writeln!(
                s,
                r#"<text x="{lx:.1}" y="{ly:.1}" font-size="9" text-anchor="end" transform="rotate(-60 {lx:.1} {ly:.1})">{},{}</text>"#,
                layer.p, layer.q
            );
        }
        let _ = writeln!(s, "</g>");
    }
    // Legend.
    let lx = left + plot_w + 20.0;
    let _ = writeln!(s, r#"<g class="legend">"#);
    for (i, (name, color)) in COLORS.iter().enumerate() {
        let y = top + 20.0 * i as f64;
        let label = match *name {
            "win" => "South wins",
            "loss" => "South loses",
            _ => "draw",
        };
        let _ = writeln!(
            s,
            r#"<rect x="{lx:.1}" y="{y:.1}" width="12" height="12" fill="{color}"/><text x="{:.1}" y="{:.1}">{label}</text>"#,
            lx + 18.0,
            y + 10.0
        );
    }
    let _ = writeln!(s, "</g>");
    s.push_str("</svg>\n");
    s
}
