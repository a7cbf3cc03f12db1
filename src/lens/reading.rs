//! What the lens read back from the GPU for one line, and what follows from it directly: the
//! pairs a pass compared and which of them swapped, a radix pass's histogram. Every value
//! comes from the run's GPU state (`probe`); nothing here sorts or computes keys.

use super::line::LensLine;

/// One position of the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LensCell {
    /// The pixel there now.
    pub pixel: [u8; 4],
    /// Its sort key (the bar's height).
    pub key: u32,
    /// The interval id of the position (0 without intervals).
    pub interval: u32,
    /// The pixel there before the last step (the pass's input for radix).
    pub before: Option<[u8; 4]>,
    /// Radix: the digit of the pass's input pixel at this position.
    pub digit: Option<u32>,
    /// Radix: the position the pass's scatter sent that input pixel to.
    pub slot: Option<u32>,
}

/// What the last step of the run was, as far as the lens shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepReading {
    /// No step has run: the line is the input.
    Start,
    /// Odd-even pass of iteration `iteration` (0-based): it compared the pairs `(x - 1, x)`
    /// with `x` of the iteration's parity.
    OddEven {
        /// The pass's iteration.
        iteration: u32,
    },
    /// A bubble dispatch of up to `budget` phases starting at phase `first_phase`.
    Bubble {
        /// The dispatch's first phase (its parity decides the first phase's pairs).
        first_phase: u32,
        /// Phases the dispatch could run (the budget, less at the end).
        budget: u32,
        /// Phases the line actually ran, as the GPU reported.
        ran: u32,
        /// Whether the line left early: a phase pair made no swap (the GPU's flag).
        left_early: bool,
        /// Phases after which every line is sorted.
        line_phases: u32,
    },
    /// A stage of the bitonic network.
    Bitonic {
        /// The stage (0-based) and stages in all.
        index: u32,
        /// See `index`.
        stages: u32,
    },
    /// A radix digit pass (or a stage of its scatter).
    Radix {
        /// The digit pass (0-based) and passes in all.
        pass: u32,
        /// See `pass`.
        passes: u32,
        /// The scatter stage done (1-based) and stages per pass.
        stage: u32,
        /// See `stage`.
        stages: u32,
        /// Bits per digit.
        digit_bits: u32,
        /// The exclusive prefix sums of the digit counts over the sequence, from the pass's
        /// counts (`None` where the device-wide sort ran the pass and keeps none).
        prefix: Option<Vec<u32>>,
        /// Pixels in the sequence the counts are over.
        sequence_len: u32,
        /// Whether the sequence is the whole picture (else the line).
        whole_picture: bool,
    },
}

/// One line of a run's state, read back from the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LensReading {
    /// Which line.
    pub line: LensLine,
    /// Its positions, first to last.
    pub cells: Vec<LensCell>,
    /// The largest value the key can take (bars are drawn against it).
    pub key_max: u32,
    /// Steps the run has done.
    pub steps_done: u32,
    /// What the last step was.
    pub step: StepReading,
}

impl LensReading {
    /// The left positions `l` of the pairs `(l, l + 1)` that phase (or pass) `phase` compares:
    /// `l + 1` has the phase's parity, and both lie in the same interval.
    pub fn compared_in(&self, phase: u32) -> Vec<usize> {
        let first = crate::algorithms::odd_even::first_left(phase);
        (first..self.cells.len().saturating_sub(1))
            .step_by(2)
            .filter(|&l| self.cells[l].interval == self.cells[l + 1].interval)
            .collect()
    }

    /// The pairs the last odd-even pass compared (empty for other steps).
    pub fn compared(&self) -> Vec<usize> {
        match self.step {
            StepReading::OddEven { iteration } => self.compared_in(iteration),
            _ => Vec::new(),
        }
    }

    /// The pairs `(a, b)` the last bitonic stage compared in this line: within each interval, as
    /// `crate::algorithms::bitonic::stage::Stage::partner` pairs positions from the interval's start.
    pub fn stage_pairs(&self) -> Vec<(usize, usize)> {
        let StepReading::Bitonic { index, .. } = self.step else { return Vec::new() };
        let stage = crate::algorithms::bitonic::stage::Stage::at(index);
        let mut pairs = Vec::new();
        let mut start = 0;
        while start < self.cells.len() {
            let interval = self.cells[start].interval;
            let len = self.cells[start..].iter().take_while(|c| c.interval == interval).count();
            for a in 0..len as u32 {
                if let Some(b) = stage.partner(a, len as u32) {
                    pairs.push((start + a as usize, start + b as usize));
                }
            }
            start += len;
        }
        pairs
    }

    /// Whether the pixels at `a` and `b` exchanged places in the last step.
    pub fn exchanged(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.cells[a], &self.cells[b]);
        match (x.before, y.before) {
            (Some(before_x), Some(before_y)) => {
                before_x != before_y && x.pixel == before_y && y.pixel == before_x
            }
            _ => false,
        }
    }

    /// Whether the pair at `left` exchanged its pixels in the last step.
    pub fn swapped(&self, left: usize) -> bool {
        self.exchanged(left, left + 1)
    }

    /// Positions whose pixel changed in the last step.
    pub fn changed(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i].before.is_some_and(|b| b != self.cells[i].pixel))
            .collect()
    }

    /// A radix pass's count of each digit over its sequence, from the prefix sums.
    pub fn histogram(&self) -> Option<Vec<u32>> {
        let StepReading::Radix { prefix: Some(prefix), sequence_len, .. } = &self.step else { return None };
        Some(
            prefix
                .iter()
                .enumerate()
                .map(|(d, &start)| prefix.get(d + 1).copied().unwrap_or(*sequence_len) - start)
                .collect(),
        )
    }
}
