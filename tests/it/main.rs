//! dealer's integration tests, one test crate: each module is one subject
//! (a command, a front end, an engine cross-check). One crate links the
//! dependencies once; libtest runs the modules' tests in parallel.
//! Two tests need a process of their own and have a binary each:
//! tests/interrupt.rs (Ctrl-C's stop request is process-wide) and
//! tests/web_load.rs (it measures the process's memory).

mod common;
mod naive;

mod announce_first;
mod bad_input;
mod beamer_slides;
mod beliefs_random;
mod beliefs_scenarios;
mod books;
mod browser;
mod browser_lecture_hall;
mod browser_quiz;
mod browser_views;
mod cabo_psychic;
mod cabo_psychic_full;
mod cabo_special;
mod cabo_uncounted;
mod classics;
mod cli;
mod completions;
mod differential;
mod docs_links;
mod editor_grammar;
mod engines;
mod engines_random;
mod errors;
mod every_game_ends;
mod experiments_records;
mod figure_crossings;
mod figure_placements;
mod figure_values;
mod figures;
mod figures_slides;
mod games;
mod gofish_second_order_code;
mod json;
mod kemps_at_size;
mod konigrufen_cabo;
mod naive_ratio;
mod parser;
mod parser_fast;
mod per_card;
mod play;
mod play_engines;
mod play_pty;
mod properties;
mod questions;
mod quiz;
mod referee;
mod repl;
mod repl_complete;
mod repl_quiz;
mod robustness;
mod scenarios;
mod strategies;
mod strategy_knowledge;
mod strategy_moves;
mod sweep;
mod symbolic_scale;
mod tournament;
mod toy_game;
mod variables_random;
mod variables_structure;
mod web;
mod web_bounds;
mod web_figures_true;
mod web_quiz;
mod web_time_limit;
mod witness;
mod world_names;
