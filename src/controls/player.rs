//! The state machine behind the window's controls: where the run is, where it is going, and
//! how fast. It drives any [`Stepper`], so tests run it on the CPU model.

use super::commands::Command;

/// What the player moves: a GPU run in the window, the CPU model in tests.
pub trait Stepper {
    /// Steps after which the picture is sorted whatever its content.
    fn total_steps(&self) -> u32;
    /// Steps done.
    fn steps_done(&self) -> u32;
    /// Runs up to `n` more steps (called every frame, with 0 when none are due).
    fn advance(&mut self, n: u32);
    /// Back to step 0.
    fn restart(&mut self);
    /// Whether the picture is known to be sorted.
    fn known_sorted(&self) -> bool;
}

/// Speeds in passes per second: one a second up to many passes per frame.
pub const SPEEDS: [f64; 14] =
    [1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 3840.0, 7680.0];
/// The speed a new window starts at (30 passes per second).
const START_SPEED: usize = 5;

/// Play state, speed and the pass being headed for.
#[derive(Clone, Debug)]
pub struct Player {
    playing: bool,
    speed: usize,
    /// Fractional passes owed by the clock while playing.
    owed: f64,
    /// A pass to reach by stepping over the next frames (jumps, back, last).
    target: Option<u32>,
}

impl Default for Player {
    fn default() -> Self {
        Player { playing: false, speed: START_SPEED, owed: 0.0, target: None }
    }
}

impl Player {
    /// Whether passes run continuously.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Passes per second while playing.
    pub fn speed(&self) -> f64 {
        SPEEDS[self.speed]
    }

    /// The pass being headed for, if any.
    pub fn target(&self) -> Option<u32> {
        self.target
    }

    /// Whether steps are still due (playing, or a target not reached).
    pub fn busy(&self) -> bool {
        self.playing || self.target.is_some()
    }

    /// Stops playing and forgets any target.
    pub fn stop(&mut self) {
        self.playing = false;
        self.target = None;
        self.owed = 0.0;
    }

    /// Uses the listed speed nearest to `passes_per_second`.
    pub fn set_speed(&mut self, passes_per_second: f64) {
        let distance = |i: usize| (SPEEDS[i] - passes_per_second).abs();
        self.speed = (0..SPEEDS.len()).min_by(|&a, &b| distance(a).total_cmp(&distance(b))).unwrap_or(0);
    }

    /// Applies a transport command; commands about other things are ignored.
    pub fn apply(&mut self, command: Command, run: &mut dyn Stepper) {
        // Steps and jumps count from where the player is heading, so keys pressed faster than
        // the frames run them all add up.
        let done = self.target.unwrap_or(run.steps_done());
        let total = run.total_steps();
        let tenth = (total / 10).max(1);
        match command {
            Command::PlayPause => {
                if !self.playing && (done >= total || run.known_sorted()) {
                    // Playing a finished run plays it again from the start.
                    self.go_to(0, run);
                }
                self.playing = !self.playing;
                self.owed = 0.0;
            }
            Command::StepForward => self.pause_and_go(done.saturating_add(1), run),
            Command::StepBack => self.pause_and_go(done.saturating_sub(1), run),
            Command::JumpForward => self.pause_and_go(done.saturating_add(tenth), run),
            Command::JumpBack => self.pause_and_go(done.saturating_sub(tenth), run),
            Command::First => self.pause_and_go(0, run),
            Command::Last => self.pause_and_go(total, run),
            Command::Reset => {
                self.playing = false;
                self.target = None;
                run.restart();
            }
            Command::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Command::Slower => self.speed = self.speed.saturating_sub(1),
            _ => {}
        }
    }

    fn pause_and_go(&mut self, pass: u32, run: &mut dyn Stepper) {
        self.playing = false;
        self.go_to(pass, run);
    }

    /// Heads for `pass`: going back restarts from the input and replays, since a pass cannot
    /// be undone; the steps themselves are spread over frames by [`Player::tick`].
    pub fn go_to(&mut self, pass: u32, run: &mut dyn Stepper) {
        let pass = pass.min(run.total_steps());
        if pass < run.steps_done() {
            run.restart();
        }
        self.target = (pass > run.steps_done()).then_some(pass);
    }

    /// Advances the run for one frame that took `seconds`, by at most `budget` steps (what fits
    /// the frame's time); returns the steps run.
    pub fn tick(&mut self, seconds: f64, budget: u32, run: &mut dyn Stepper) -> u32 {
        let before = run.steps_done();
        let remaining = run.total_steps() - before;
        let wanted = if let Some(target) = self.target {
            target.saturating_sub(before)
        } else if self.playing {
            self.owed += self.speed() * seconds;
            self.owed.floor().min(f64::from(u32::MAX)) as u32
        } else {
            0
        };
        // Called even for no steps: lanes kept together by pass bring laggards level then.
        let n = wanted.min(budget).min(remaining);
        run.advance(n);
        let ran = run.steps_done() - before;
        if self.playing && self.target.is_none() {
            // Keep what the budget cut off from growing without bound.
            self.owed = (self.owed - f64::from(ran)).min(f64::from(budget.max(1)));
            // The player's own account of playing, which the window test holds to the speed.
            log::debug!("played {ran} of {wanted} steps owed in a frame of {seconds:.5} s");
        }
        if self.target.is_some_and(|t| run.steps_done() >= t) {
            self.target = None;
        }
        if self.playing && (run.steps_done() >= run.total_steps() || run.known_sorted()) {
            self.playing = false;
        }
        ran
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::options::SortOptions;
    use crate::picture::patterns::random_image;
    use crate::reference;
    use image::RgbaImage;

    /// The CPU model as a stepper.
    struct Model {
        input: RgbaImage,
        state: RgbaImage,
        done: u32,
        last_two_zero: bool,
        previous: Option<u64>,
    }

    impl Model {
        fn new(input: RgbaImage) -> Self {
            Model { state: input.clone(), input, done: 0, last_two_zero: false, previous: None }
        }
    }

    impl Stepper for Model {
        fn total_steps(&self) -> u32 {
            self.input.width()
        }
        fn steps_done(&self) -> u32 {
            self.done
        }
        fn advance(&mut self, n: u32) {
            for _ in 0..n.min(self.total_steps() - self.done) {
                let swaps = reference::odd_even_pass(&mut self.state, &SortOptions::default(), self.done);
                self.last_two_zero |= swaps == 0 && self.previous == Some(0);
                self.previous = Some(swaps);
                self.done += 1;
            }
        }
        fn restart(&mut self) {
            *self = Model::new(self.input.clone());
        }
        fn known_sorted(&self) -> bool {
            self.last_two_zero
        }
    }

    fn model() -> Model {
        // A reversed gradient needs all its passes, so "known sorted" comes only at the end.
        Model::new(RgbaImage::from_fn(40, 3, |x, _| image::Rgba([(200 - x * 5) as u8, 0, 0, 255])))
    }

    /// Runs frames until the player is idle.
    fn settle(player: &mut Player, run: &mut Model) {
        for _ in 0..1000 {
            if !player.busy() {
                return;
            }
            player.tick(1.0 / 60.0, 7, run);
        }
        panic!("the player never settled");
    }

    fn assert_at(run: &Model, pass: u32) {
        assert_eq!(run.steps_done(), pass);
        assert!(
            run.state == reference::odd_even_passes(&run.input, &SortOptions::default(), pass),
            "pass {pass}"
        );
    }

    #[test]
    fn keys_pressed_before_a_frame_runs_them_all_count() {
        let (mut player, mut run) = (Player::default(), model());
        for _ in 0..3 {
            player.apply(Command::StepForward, &mut run);
        }
        settle(&mut player, &mut run);
        assert_at(&run, 3);
        player.apply(Command::StepBack, &mut run);
        player.apply(Command::StepBack, &mut run);
        player.apply(Command::JumpForward, &mut run);
        settle(&mut player, &mut run);
        assert_at(&run, 5);
    }

    #[test]
    fn step_back_and_jumps_land_on_the_model_state() {
        let (mut player, mut run) = (Player::default(), model());
        // Each command in turn, and the pass it lands on: steps and jumps stop at either end.
        let moves = [
            (Command::StepForward, 1),
            (Command::JumpForward, 5),
            (Command::StepBack, 4),
            (Command::JumpBack, 0),
            (Command::StepBack, 0),
            (Command::Last, 40),
            (Command::StepForward, 40),
            (Command::First, 0),
        ];
        for (command, pass) in moves {
            player.apply(command, &mut run);
            settle(&mut player, &mut run);
            assert_at(&run, pass);
        }
    }

    #[test]
    fn long_moves_are_spread_over_frames_within_the_budget() {
        let (mut player, mut run) = (Player::default(), model());
        player.apply(Command::Last, &mut run);
        assert_eq!(player.tick(0.016, 7, &mut run), 7);
        assert_eq!(player.tick(0.016, 7, &mut run), 7);
        assert_at(&run, 14);
        assert_eq!(player.target(), Some(40));
    }

    #[test]
    fn playing_follows_the_clock_and_stops_at_the_end() {
        let (mut player, mut run) = (Player::default(), model());
        player.apply(Command::PlayPause, &mut run);
        assert!(player.playing());
        // 30 passes per second: half a second is 15 passes.
        for _ in 0..30 {
            player.tick(1.0 / 60.0, 100, &mut run);
        }
        assert_at(&run, 15);
        for _ in 0..200 {
            player.tick(1.0 / 60.0, 100, &mut run);
        }
        assert_at(&run, 40);
        assert!(!player.playing(), "playing stops when the sort is done");
        player.apply(Command::PlayPause, &mut run);
        assert!(player.playing());
        assert_at(&run, 0);
    }

    #[test]
    fn pause_keeps_the_pass_and_reset_returns_to_the_input() {
        let (mut player, mut run) = (Player::default(), model());
        player.apply(Command::PlayPause, &mut run);
        player.tick(0.2, 100, &mut run);
        player.apply(Command::PlayPause, &mut run);
        let at = run.steps_done();
        player.tick(1.0, 100, &mut run);
        assert_at(&run, at);
        player.apply(Command::Reset, &mut run);
        assert!(!player.busy());
        assert_at(&run, 0);
    }

    #[test]
    fn speed_stays_within_its_bounds() {
        let (mut player, mut run) = (Player::default(), model());
        for _ in 0..50 {
            player.apply(Command::Faster, &mut run);
        }
        assert_eq!(player.speed(), SPEEDS[SPEEDS.len() - 1]);
        for _ in 0..50 {
            player.apply(Command::Slower, &mut run);
        }
        assert_eq!(player.speed(), 1.0);
        player.apply(Command::PlayPause, &mut run);
        player.tick(0.5, 100, &mut run);
        player.tick(0.5, 100, &mut run);
        assert_at(&run, 1);
    }

    #[test]
    fn a_requested_speed_snaps_to_the_nearest_listed_one() {
        let mut player = Player::default();
        player.set_speed(55.0);
        assert_eq!(player.speed(), 60.0);
        player.set_speed(1e9);
        assert_eq!(player.speed(), SPEEDS[SPEEDS.len() - 1]);
        player.set_speed(0.0);
        assert_eq!(player.speed(), 1.0);
    }

    #[test]
    fn fast_playing_is_capped_by_the_budget_without_building_a_backlog() {
        let (mut player, mut run) = (Player::default(), Model::new(random_image(400, 1, 2)));
        for _ in 0..50 {
            player.apply(Command::Faster, &mut run);
        }
        player.apply(Command::PlayPause, &mut run);
        assert_eq!(player.tick(1.0, 5, &mut run), 5);
        assert!(player.tick(1.0 / 60.0, 5, &mut run) <= 5);
    }
}
