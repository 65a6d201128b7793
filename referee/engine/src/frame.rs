//! A judge game's frames: the views of the game a judge draws for its
//! replay (docs/reference.md, "Judges"). The record keeps each as
//! `{"move": N, "frame": {...}}`, N the moves made when it was drawn (0:
//! the set-up); the report's viewer draws them, and this module writes
//! them as text for a terminal (`referee replay`).

use serde_json::Value;

/// The frames drawn after exactly `moves` moves.
pub fn at_move(frames: &[Value], moves: u64) -> impl Iterator<Item = &Value> {
    frames
        .iter()
        .filter(move |f| f["move"].as_u64() == Some(moves))
        .map(|f| &f["frame"])
}

/// A frame as lines of text: its grid (cells padded to one width, `.` for
/// an empty one), its hud (`A: 3  B: 2`), its caption. Colours and
/// anything else are left to the report's viewer.
pub fn text(frame: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    let cell = |c: &Value| -> String {
        match c {
            Value::String(s) if s.is_empty() => ".".into(),
            Value::String(s) => crate::text::escape(s).into_owned(),
            Value::Null => ".".into(),
            other => other.to_string(),
        }
    };
    if let Some(rows) = frame["grid"]["cells"].as_array() {
        let rows: Vec<Vec<String>> = rows
            .iter()
            .map(|row| {
                row.as_array()
                    .map_or(vec![], |r| r.iter().map(cell).collect())
            })
            .collect();
        let width = rows
            .iter()
            .flatten()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(1);
        for row in rows {
            let padded: Vec<String> = row.iter().map(|c| format!("{c:>width$}")).collect();
            lines.push(padded.join(" "));
        }
    }
    if let Some(hud) = frame["hud"].as_object() {
        let parts: Vec<String> = hud
            .iter()
            .map(|(k, v)| {
                let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                format!("{}: {}", crate::text::escape(k), crate::text::escape(&v))
            })
            .collect();
        if !parts.is_empty() {
            lines.push(parts.join("  "));
        }
    }
    if let Some(caption) = frame["text"].as_str() {
        lines.push(crate::text::escape(caption).into_owned());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_frame_reads_as_its_grid_hud_and_caption() {
        let frame = json!({
            "grid": {"rows": 2, "cols": 3, "cells": [["", "X", ""], ["O", "X", "10"]]},
            "hud": {"A": "2 moves", "B": 1},
            "text": "A drops in column 2"
        });
        assert_eq!(
            text(&frame),
            [
                " .  X  .",
                " O  X 10",
                "A: 2 moves  B: 1",
                "A drops in column 2"
            ]
        );
        let frames = vec![
            json!({"move": 0, "frame": {"text": "set-up"}}),
            json!({"move": 2, "frame": {"text": "two"}}),
        ];
        assert_eq!(at_move(&frames, 2).count(), 1);
        assert_eq!(at_move(&frames, 1).count(), 0);
    }
}
