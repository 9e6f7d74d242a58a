//! Bitboards: one bit per square index of the layout of [`crate::tables`], in a width chosen per
//! board.
//!
//! The generator is generic over [`Bits`], implemented for `u64` (8x8 and 10x10 boards, Frisian's
//! orthogonal 10x10 layout included), `u128` (12x12, 14x14, Turkish 8x8) and [`Wide`], a fixed
//! array of 64-bit limbs for anything larger (up to 26x26 with every square played: 702 bits).
//! Bits shifted past the top of the width are dropped; the layout guarantees that no step from a
//! square of the board needs them (a step off the board lands on a ghost bit or leaves the width,
//! and both are masked off by the board).

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of square indices as a fixed-width bitboard.
///
/// Every method is total: shifting by the width or more gives zero, and the index methods return
/// [`Bits::NONE`] for an empty set.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// The number of bits (square indices `0..BITS`).
    const BITS: u32;
    /// What the index methods return for an empty set.
    const NONE: u32 = u32::MAX;

    /// The set holding only `index` (empty if `index >= BITS`).
    fn bit(index: u32) -> Self;
    /// Whether the set is empty.
    fn is_zero(self) -> bool;
    /// The number of indices in the set.
    fn count(self) -> u32;
    /// The lowest index in the set ([`Bits::NONE`] if empty).
    fn lowest_index(self) -> u32;
    /// The highest index in the set ([`Bits::NONE`] if empty).
    fn highest_index(self) -> u32;
    /// The set shifted towards higher indices by `amount` (bits past the top are dropped).
    fn up(self, amount: u32) -> Self;
    /// The set shifted towards lower indices by `amount`.
    fn down(self, amount: u32) -> Self;
    /// The set as little-endian 64-bit limbs (`ceil(BITS / 64)` of them).
    fn to_limbs(self) -> Vec<u64>;
    /// The set from little-endian 64-bit limbs; `None` if a bit at `BITS` or above is set
    /// (missing limbs are zero).
    fn from_limbs(limbs: &[u64]) -> Option<Self>;

    /// Whether the set is not empty.
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_zero()
    }
    /// Whether `index` is in the set.
    #[inline(always)]
    fn has(self, index: u32) -> bool {
        (self & Self::bit(index)).any()
    }
    /// The set with only its lowest index (empty if empty).
    #[inline(always)]
    fn lowest(self) -> Self {
        if self.is_zero() {
            self
        } else {
            Self::bit(self.lowest_index())
        }
    }
    /// The set with only its highest index (empty if empty).
    #[inline(always)]
    fn highest(self) -> Self {
        if self.is_zero() {
            self
        } else {
            Self::bit(self.highest_index())
        }
    }
    /// The set shifted by `amount`, up or down.
    #[inline(always)]
    fn shift(self, amount: u32, up: bool) -> Self {
        if up {
            self.up(amount)
        } else {
            self.down(amount)
        }
    }
    /// The indices strictly below `index` (all of them if `index >= BITS`).
    fn below(index: u32) -> Self {
        let mut out = Self::ZERO;
        let mut i = 0;
        while i < index.min(Self::BITS) {
            out |= Self::bit(i);
            i += 1;
        }
        out
    }
    /// Iterates over the indices of the set, lowest first.
    #[inline(always)]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

/// The indices of a bitboard, lowest first (see [`Bits::iter`]).
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B: Bits>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_zero() {
            None
        } else {
            let index = self.0.lowest_index();
            self.0 ^= B::bit(index);
            Some(index)
        }
    }
}

macro_rules! primitive_bits {
    ($t:ty, $n:expr) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const BITS: u32 = $n;
            #[inline(always)]
            fn bit(index: u32) -> Self {
                (1 as $t).checked_shl(index).unwrap_or(0)
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest_index(self) -> u32 {
                if self == 0 {
                    u32::MAX
                } else {
                    self.trailing_zeros()
                }
            }
            #[inline(always)]
            fn highest_index(self) -> u32 {
                if self == 0 {
                    u32::MAX
                } else {
                    $n - 1 - self.leading_zeros()
                }
            }
            #[inline(always)]
            fn up(self, amount: u32) -> Self {
                self.checked_shl(amount).unwrap_or(0)
            }
            #[inline(always)]
            fn down(self, amount: u32) -> Self {
                self.checked_shr(amount).unwrap_or(0)
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            fn to_limbs(self) -> Vec<u64> {
                (0..$n / 64).map(|i| (self >> (64 * i)) as u64).collect()
            }
            fn from_limbs(limbs: &[u64]) -> Option<Self> {
                let mut out: $t = 0;
                for (i, &limb) in limbs.iter().enumerate() {
                    if limb == 0 {
                        continue;
                    }
                    if i >= $n / 64 {
                        return None;
                    }
                    out |= (limb as $t) << (64 * i);
                }
                Some(out)
            }
        }
    };
}

primitive_bits!(u64, 64);
primitive_bits!(u128, 128);

/// A bitboard of `N` 64-bit limbs, little-endian (limb 0 holds indices 0-63), for boards whose
/// layout needs more than 128 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<const N: usize> $tr for Wide<N> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, other: Self) -> Self {
                let mut out = self.0;
                for i in 0..N {
                    out[i] $op other.0[i];
                }
                Wide(out)
            }
        }
        impl<const N: usize> $atr for Wide<N> {
            #[inline(always)]
            fn $af(&mut self, other: Self) {
                for i in 0..N {
                    self.0[i] $op other.0[i];
                }
            }
        }
    };
}

wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        let mut out = self.0;
        for limb in out.iter_mut() {
            *limb = !*limb;
        }
        Wide(out)
    }
}

impl<const N: usize> Bits for Wide<N> {
    const ZERO: Self = Wide([0; N]);
    const BITS: u32 = 64 * N as u32;
    #[inline(always)]
    fn bit(index: u32) -> Self {
        let mut out = [0; N];
        let limb = (index / 64) as usize;
        if limb < N {
            out[limb] = 1 << (index % 64);
        }
        Wide(out)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&limb| limb == 0)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|limb| limb.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest_index(self) -> u32 {
        for (i, &limb) in self.0.iter().enumerate() {
            if limb != 0 {
                return 64 * i as u32 + limb.trailing_zeros();
            }
        }
        u32::MAX
    }
    #[inline(always)]
    fn highest_index(self) -> u32 {
        for i in (0..N).rev() {
            let limb = self.0[i];
            if limb != 0 {
                return 64 * i as u32 + 63 - limb.leading_zeros();
            }
        }
        u32::MAX
    }
    #[inline(always)]
    fn up(self, amount: u32) -> Self {
        let limbs = (amount / 64) as usize;
        let bits = amount % 64;
        let mut out = [0u64; N];
        if limbs >= N {
            return Wide(out);
        }
        for i in (limbs..N).rev() {
            let src = i - limbs;
            let mut value = self.0[src] << bits;
            if bits != 0 && src > 0 {
                value |= self.0[src - 1] >> (64 - bits);
            }
            out[i] = value;
        }
        Wide(out)
    }
    #[inline(always)]
    fn down(self, amount: u32) -> Self {
        let limbs = (amount / 64) as usize;
        let bits = amount % 64;
        let mut out = [0u64; N];
        if limbs >= N {
            return Wide(out);
        }
        for (i, slot) in out.iter_mut().enumerate().take(N - limbs) {
            let src = i + limbs;
            let mut value = self.0[src] >> bits;
            if bits != 0 && src + 1 < N {
                value |= self.0[src + 1] << (64 - bits);
            }
            *slot = value;
        }
        Wide(out)
    }
    fn to_limbs(self) -> Vec<u64> {
        self.0.to_vec()
    }
    fn from_limbs(limbs: &[u64]) -> Option<Self> {
        let mut out = [0; N];
        for (i, &limb) in limbs.iter().enumerate() {
            if limb == 0 {
                continue;
            }
            if i >= N {
                return None;
            }
            out[i] = limb;
        }
        Some(Wide(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<B: Bits>() {
        let a = B::bit(3) | B::bit(B::BITS - 1);
        assert_eq!(a.count(), 2);
        assert_eq!(a.lowest_index(), 3);
        assert_eq!(a.highest_index(), B::BITS - 1);
        assert_eq!(a.up(1), B::bit(4));
        assert_eq!(a.down(3), B::bit(0) | B::bit(B::BITS - 4));
        assert_eq!(a.up(B::BITS), B::ZERO);
        assert_eq!(a.down(B::BITS + 5), B::ZERO);
        assert_eq!(B::bit(B::BITS), B::ZERO);
        assert_eq!(B::ZERO.lowest_index(), B::NONE);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![3, B::BITS - 1]);
        assert_eq!(B::from_limbs(&a.to_limbs()), Some(a));
        assert_eq!(B::below(5).count(), 5);
        assert_eq!(a.lowest(), B::bit(3));
        assert_eq!(a.highest(), B::bit(B::BITS - 1));
        let mut too_wide = vec![0u64; (B::BITS / 64) as usize + 1];
        *too_wide.last_mut().unwrap() = 1;
        assert_eq!(B::from_limbs(&too_wide), None);
    }

    #[test]
    fn every_width_behaves_alike() {
        check::<u64>();
        check::<u128>();
        check::<Wide<4>>();
        check::<Wide<11>>();
    }

    #[test]
    fn wide_shifts_cross_limbs() {
        let a = Wide::<3>::bit(63);
        assert_eq!(a.up(1), Wide::<3>::bit(64));
        assert_eq!(a.up(70), Wide::<3>::bit(133));
        assert_eq!(Wide::<3>::bit(133).down(70), a);
        assert_eq!(Wide::<3>::bit(64).down(1), a);
    }
}
