//! Board geometry: which squares are played and the `(x, y)` of each square number.
//!
//! Coordinates are `(x, y)` with `x` the file (0 = White's left) and `y` the rank (0 = White's
//! back row), always seen from White. A board is `width` files by `height` ranks. On a board of
//! dark squares (its width even, so every rank holds `width / 2` squares) a square is playable
//! when `x + y` is even if the bottom-left corner is playable, odd otherwise; on a board of every
//! square all `width * height` squares are playable. Squares are numbered from 1 in the scheme of
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
    /// Files (squares along a rank).
    pub width: u32,
    /// Ranks.
    pub height: u32,
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
    /// The geometry of a `width` x `height` board.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] if a side is not from 4 to [`LARGEST_BOARD`], a board of dark
    /// squares has an odd width, or a board of every square is said to have an unplayable
    /// bottom-left corner.
    pub fn new(
        width: u32,
        height: u32,
        all_squares: bool,
        bottom_left_playable: bool,
        numbering: Numbering,
    ) -> Result<Self, Error> {
        let sides = 4..=LARGEST_BOARD;
        if !sides.contains(&width) || !sides.contains(&height) {
            return Err(Error::InvalidSpec(format!(
                "board {width}x{height}: each side must be from 4 to {LARGEST_BOARD}"
            )));
        }
        if !all_squares && !width.is_multiple_of(2) {
            return Err(Error::InvalidSpec(format!(
                "board {width}x{height}: a board of dark squares needs an even width"
            )));
        }
        if all_squares && !bottom_left_playable {
            return Err(Error::InvalidSpec(
                "bottom_left_playable must be true on a board of every square".into(),
            ));
        }
        let (w, h) = (width as i32, height as i32);
        let top = matches!(numbering, Numbering::TopLeft | Numbering::TopRight);
        let left = matches!(numbering, Numbering::TopLeft | Numbering::BottomLeft);
        let parity = if bottom_left_playable { 0 } else { 1 };
        let mut coords = vec![(-1, -1)];
        for row in 0..h {
            let y = if top { h - 1 - row } else { row };
            for file in 0..w {
                let x = if left { file } else { w - 1 - file };
                if all_squares || (x + y) % 2 == parity {
                    coords.push((x, y));
                }
            }
        }
        Ok(Geometry {
            width,
            height,
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
        if !(0..self.width as i32).contains(&x) || !(0..self.height as i32).contains(&y) {
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
        let g = Geometry::new(10, 10, false, true, Numbering::TopLeft).unwrap();
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
        let g = Geometry::new(8, 8, false, false, Numbering::BottomRight).unwrap();
        assert_eq!(g.coords[1], (7, 0));
        let t = Geometry::new(8, 8, true, true, Numbering::BottomLeft).unwrap();
        assert_eq!(t.squares(), 64);
        assert_eq!(t.coords[1], (0, 0));
        assert_eq!(t.coords[64], (7, 7));
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(Geometry::new(9, 9, false, true, Numbering::TopLeft).is_err());
        assert!(Geometry::new(28, 28, false, true, Numbering::TopLeft).is_err());
        assert!(Geometry::new(10, 28, false, true, Numbering::TopLeft).is_err());
        assert!(Geometry::new(2, 2, false, true, Numbering::TopLeft).is_err());
        assert!(Geometry::new(8, 8, true, false, Numbering::TopLeft).is_err());
        assert!(Geometry::new(9, 8, true, true, Numbering::TopLeft).is_ok());
    }

    #[test]
    fn rectangles_read_their_unequal_rows() {
        // Spantsiretti's 80-square board: 10 files, 8 ranks, square 1 top-left.
        let g = Geometry::new(10, 8, false, true, Numbering::TopLeft).unwrap();
        assert_eq!(g.squares(), 40);
        assert_eq!(g.coords[1], (1, 7));
        assert_eq!(g.coords[40], (8, 0));
        assert_eq!(g.square_at(0, 0), Some(36));
        assert!(!g.is_playable(10, 0));
        // dctl's 10x11, lower-left corner not played: 55 squares.
        let k = Geometry::new(10, 11, false, false, Numbering::TopLeft).unwrap();
        assert_eq!(k.squares(), 55);
        assert_eq!(k.coords[1], (1, 10)); // a11 is light: the top row starts on b11
    }
}
