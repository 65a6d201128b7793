//! Absurd operator input is refused (exit 2, the field named, no panic, no
//! results folder); tournament names cannot leave tournaments/results;
//! control characters from bots reach the terminal escaped.
