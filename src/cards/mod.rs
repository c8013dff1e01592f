//! Card decks and game rules.
