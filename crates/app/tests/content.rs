//! Runs the content check's unit tests natively: `cargo test -p app --test content`. The check itself
//! lives beside the build script, which uses it on every build of the app.

#[path = "../content_check.rs"]
mod content_check;
