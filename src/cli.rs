//! The command line: flags, their defaults and help text.

use crate::algorithms::Algorithm;
use crate::algorithms::odd_even::PassKind;
use crate::key::SortKey;
use crate::options::{Axis, SortOptions};
use clap::Parser;
use std::path::PathBuf;

/// Watch pixels sort on the GPU, or sort a picture headless and save it.
///
/// Every row (or column) of the picture is sorted by a key computed from each pixel; pixels
/// move whole, so the result holds exactly the colours of the input. Without IMAGE the built-in
/// photograph (coffee.png, CC0) is used.
#[derive(Debug, Parser)]
#[command(name = "shadersort", version, about, long_about = None)]
pub struct Cli {
    /// Picture to sort: PNG, JPEG, GIF, BMP, WebP or TIFF; any colour type is read as RGBA8.
    pub image: Option<PathBuf>,

    /// Sort without a window and write the result (or the state after --passes) to this PNG.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// Stop after this many passes instead of sorting to the end.
    #[arg(long, value_name = "N")]
    pub passes: Option<u32>,

    /// Sorting algorithm.
    #[arg(long, value_enum, default_value_t)]
    pub algorithm: Algorithm,

    /// How a pass runs on the GPU: a compute kernel, or a fragment shader rendering into the other texture.
    #[arg(long = "pass", value_enum, default_value_t)]
    pub pass_kind: PassKind,

    /// What pixels are sorted by. luma = 299 R + 587 G + 114 B (Rec. 601 on the stored values).
    #[arg(long, value_enum, default_value_t)]
    pub key: SortKey,

    /// Sort largest key first.
    #[arg(long)]
    pub reverse: bool,

    /// Sort each row (left to right) or each column (top to bottom).
    #[arg(long, value_enum, default_value_t)]
    pub axis: Axis,

    /// Largest picture side; larger pictures are downscaled (default: the GPU's texture limit).
    #[arg(long, value_name = "PIXELS", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_size: Option<u32>,

    /// Refuse pictures larger than the limit instead of downscaling them.
    #[arg(long)]
    pub no_downscale: bool,
}

impl Cli {
    /// Key, order and axis as the algorithms take them.
    pub fn sort_options(&self) -> SortOptions {
        SortOptions { key: self.key, descending: self.reverse, axis: self.axis }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn defaults_are_luma_rows_ascending_compute() {
        let cli = Cli::parse_from(["shadersort"]);
        assert_eq!(cli.sort_options(), SortOptions::default());
        assert_eq!(cli.pass_kind, PassKind::Compute);
        assert_eq!(cli.algorithm, Algorithm::OddEven);
    }

    #[test]
    fn every_flag_parses() {
        let cli = Cli::parse_from([
            "shadersort",
            "in.png",
            "--out",
            "o.png",
            "--passes",
            "5",
            "--algorithm",
            "odd-even",
            "--pass",
            "fragment",
            "--key",
            "hue",
            "--reverse",
            "--axis",
            "columns",
            "--max-size",
            "64",
            "--no-downscale",
        ]);
        assert_eq!(
            cli.sort_options(),
            SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns }
        );
        assert_eq!((cli.passes, cli.max_size, cli.no_downscale), (Some(5), Some(64), true));
    }
}
