//! Board geometry: which squares are played and the `(x, y)` of each square number.
//!
//! Coordinates are `(x, y)` with `x` the file (0 = White's left) and `y` the rank (0 = White's
//! back row), always seen from White. On a board of dark squares a square is playable when
//! `x + y` is even if the bottom-left corner is playable, odd otherwise; on a board of every
//! square all `n * n` squares are playable. Squares are numbered from 1 in the scheme of
//! [`Numbering`]: square 1 sits in one corner as seen from White and rows are read horizontally
//! away from it (the same as `draughts.geometry` in Python).

use crate::error::Error;

/// The most squares per side of a board.
pub const LARGEST_BOARD: u32 = 26;

/// Where square 1 sits, seen from White; rows are read horizontally away from that corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Numbering {
    /// Square 1 is the first playable square of the far row, read left to right.
    TopLeft,
    /// Square 1 is the last playable square of the far row, read right to left.
    TopRight,
    /// Square 1 is White's near-left playable square, read left to right, bottom to top.
    BottomLeft,
    /// Square 1 is White's near-right playable square, read right to left, bottom to top.
    BottomRight,
}

/// The squares of one board shape and numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Squares per side.
    pub size: u32,
    /// Whether every square is played (else the dark squares only).
    pub all_squares: bool,
    /// Whether White's near-left corner is a playing square.
    pub bottom_left_playable: bool,
    /// The numbering scheme.
    pub numbering: Numbering,
    /// `coords[square]` = `(x, y)` of each square number; index 0 is unused (`(-1, -1)`).
    pub coords: Vec<(i32, i32)>,
}

impl Geometry {
    /// The geometry of a `size` x `size` board.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] if `size` is not an even number from 4 to [`LARGEST_BOARD`], or a
    /// board of every square is said to have an unplayable bottom-left corner.
    pub fn new(
        size: u32,
        all_squares: bool,
        bottom_left_playable: bool,
        numbering: Numbering,
    ) -> Result<Self, Error> {
        if !(4..=LARGEST_BOARD).contains(&size) || !size.is_multiple_of(2) {
            return Err(Error::InvalidSpec(format!(
                "board size {size} is not an even number from 4 to {LARGEST_BOARD}"
            )));
        }
        if all_squares && !bottom_left_playable {
            return Err(Error::InvalidSpec(
                "bottom_left_playable must be true on a board of every square".into(),
            ));
        }
        let n = size as i32;
        let top = matches!(numbering, Numbering::TopLeft | Numbering::TopRight);
        let left = matches!(numbering, Numbering::TopLeft | Numbering::BottomLeft);
        let parity = if bottom_left_playable { 0 } else { 1 };
        let mut coords = vec![(-1, -1)];
        for row in 0..n {
            let y = if top { n - 1 - row } else { row };
            for file in 0..n {
                let x = if left { file } else { n - 1 - file };
                if all_squares || (x + y) % 2 == parity {
                    coords.push((x, y));
                }
            }
        }
        Ok(Geometry {
            size,
            all_squares,
            bottom_left_playable,
            numbering,
            coords,
        })
    }

    /// The number of playable squares.
    pub fn squares(&self) -> u32 {
        self.coords.len() as u32 - 1
    }

    /// Whether `(x, y)` is on the board and playable.
    pub fn is_playable(&self, x: i32, y: i32) -> bool {
        let n = self.size as i32;
        if !(0..n).contains(&x) || !(0..n).contains(&y) {
            return false;
        }
        self.all_squares || (x + y) % 2 == if self.bottom_left_playable { 0 } else { 1 }
    }

    /// The square number at `(x, y)`, if playable.
    pub fn square_at(&self, x: i32, y: i32) -> Option<u32> {
        if !self.is_playable(x, y) {
            return None;
        }
        self.coords
            .iter()
            .position(|&c| c == (x, y))
            .map(|i| i as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn international_numbering_starts_top_left() {
        let g = Geometry::new(10, false, true, Numbering::TopLeft).unwrap();
        assert_eq!(g.squares(), 50);
        assert_eq!(g.coords[1], (1, 9));
        assert_eq!(g.coords[5], (9, 9));
        assert_eq!(g.coords[6], (0, 8));
        assert_eq!(g.coords[46], (0, 0));
        assert_eq!(g.square_at(0, 0), Some(46));
        assert_eq!(g.square_at(1, 0), None);
    }

    #[test]
    fn spanish_and_turkish_numbering() {
        let g = Geometry::new(8, false, false, Numbering::BottomRight).unwrap();
        assert_eq!(g.coords[1], (7, 0));
        let t = Geometry::new(8, true, true, Numbering::BottomLeft).unwrap();
        assert_eq!(t.squares(), 64);
        assert_eq!(t.coords[1], (0, 0));
        assert_eq!(t.coords[64], (7, 7));
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(Geometry::new(9, false, true, Numbering::TopLeft).is_err());
        assert!(Geometry::new(28, false, true, Numbering::TopLeft).is_err());
        assert!(Geometry::new(2, false, true, Numbering::TopLeft).is_err());
        assert!(Geometry::new(8, true, false, Numbering::TopLeft).is_err());
    }
}
