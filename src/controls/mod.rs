//! What a viewer of a sort can be told and what it says back, apart from any window: the
//! command table and its keys, what its commands change in the sort's settings, the player
//! that turns commands and time into steps, the lanes to show and their labels, and the
//! sentences that explain a step. The native window ([`crate::app`]) and the browser page
//! (`web/`) share them.

pub mod choice;
pub mod commands;
pub mod explain;
pub mod kernel_text;
pub mod lane_plan;
pub mod player;
pub mod work_text;
