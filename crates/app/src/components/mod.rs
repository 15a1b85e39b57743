//! Reusable pieces of the chapter pages: layout, controls, tables, charts and the timeline.

pub mod axis;
pub mod canvas;
pub mod code_view;
pub mod compare;
pub mod controls;
pub mod kept;
pub mod lane_chart;
pub mod language_suggestion;
pub mod later;
pub mod layout;
pub mod line_chart;
pub mod machine;
pub mod notes;
pub mod predict;
pub mod published;
pub mod replay;

pub mod results;
pub mod share;
pub mod speedup_chart;
pub mod split_view;
pub mod timeline;
pub mod trace_picker;
pub mod unavailable;
pub mod work_it_out;
