//! Charts as inline SVG, drawn here so the report needs no script library:
//! ratings with their 95% intervals, and histograms. Every text that comes
//! from a results folder (bot names) goes through [`xml_escape`].

use std::fmt::Write;

/// Escapes text for XML/HTML content and attribute values.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => {
                let _ = write!(out, "&#x{:x};", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// One bot's rating and its 95% interval.
pub struct Rating<'a> {
    pub bot: &'a str,
    pub rating: f64,
    pub low: f64,
    pub high: f64,
}

const WIDTH: f64 = 640.0;
const LABEL: f64 = 160.0;
const ROW: f64 = 22.0;

/// Each bot on a row: its rating as a dot, its interval as a bar, on one
/// shared Elo axis with 0 (the mean) marked.
pub fn ratings(rows: &[Rating<'_>]) -> String {
    let lo = rows.iter().map(|r| r.low).fold(0.0f64, f64::min).floor();
    let hi = rows.iter().map(|r| r.high).fold(0.0f64, f64::max).ceil();
    let span = (hi - lo).max(1.0);
    let plot = WIDTH - LABEL - 20.0;
    let x = |v: f64| LABEL + (v - lo) / span * plot;
    let height = ROW * rows.len() as f64 + 30.0;
    let mut svg = format!(
        r#"<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" aria-label="ratings with 95% intervals">"#
    );
    let zero = x(0.0);
    let _ = write!(
        svg,
        r##"<line x1="{zero:.1}" y1="0" x2="{zero:.1}" y2="{:.1}" stroke="#999" stroke-dasharray="3 3"/>"##,
        height - 20.0
    );
    for (i, r) in rows.iter().enumerate() {
        let y = ROW * i as f64 + ROW / 2.0;
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" font-size="12">{}</text><line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#4a7ab5" stroke-width="6" stroke-linecap="round" opacity="0.45"><title>{}: {} (95%: {} to {})</title></line><circle cx="{:.1}" cy="{y:.1}" r="4" fill="#1d4e89"/>"##,
            LABEL - 8.0,
            y + 4.0,
            xml_escape(&truncate(r.bot, 24)),
            x(r.low),
            x(r.high),
            xml_escape(r.bot),
            super::fixed(r.rating, 0),
            super::fixed(r.low, 0),
            super::fixed(r.high, 0),
            x(r.rating)
        );
    }
    let axis = height - 8.0;
    for v in [lo, 0.0, hi] {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{axis:.1}" text-anchor="middle" font-size="11">{v:.0}</text>"#,
            x(v)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// A histogram of `values` in `bins` equal bins from 0 to the largest,
/// labelled with `unit`.
pub fn histogram(values: &[f64], bins: usize, unit: &str) -> String {
    let (w, h) = (320.0, 120.0);
    let max = values.iter().copied().fold(0.0f64, f64::max);
    let mut counts = vec![0u32; bins.max(1)];
    for &v in values {
        let bin = if max > 0.0 {
            ((v / max) * counts.len() as f64) as usize
        } else {
            0
        };
        let last = counts.len() - 1;
        counts[bin.min(last)] += 1;
    }
    let top = f64::from(counts.iter().copied().max().unwrap_or(0).max(1));
    let bar = w / counts.len() as f64;
    let mut svg = format!(
        r#"<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {}" width="{w}" height="{}" role="img" aria-label="histogram">"#,
        h + 20.0,
        h + 20.0
    );
    for (i, &c) in counts.iter().enumerate() {
        let bh = f64::from(c) / top * h;
        let _ = write!(
            svg,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#4a7ab5"><title>{:.3} to {:.3} {}: {c}</title></rect>"##,
            i as f64 * bar + 1.0,
            h - bh,
            (bar - 2.0).max(1.0),
            max * i as f64 / counts.len() as f64,
            max * (i + 1) as f64 / counts.len() as f64,
            xml_escape(unit)
        );
    }
    let _ = write!(
        svg,
        r#"<text x="0" y="{:.1}" font-size="11">0</text><text x="{w}" y="{:.1}" font-size="11" text-anchor="end">{:.3} {}</text></svg>"#,
        h + 15.0,
        h + 15.0,
        max,
        xml_escape(unit)
    );
    svg
}

fn truncate(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        text.chars().take(chars - 1).chain(['…']).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_in_charts() {
        let svg = ratings(&[Rating {
            bot: "<script>alert(1)</script>",
            rating: 10.0,
            low: -5.0,
            high: 20.0,
        }]);
        assert!(!svg.contains("<script>"));
        assert!(svg.contains("&lt;script&gt;"));
        let h = histogram(&[1.0, 2.0, 2.5, 10.0], 4, "ms");
        assert_eq!(h.matches("<rect").count(), 4);
    }
}
