// Direct-mapped caches of computed colours and colour differences. Natural
// pictures repeat colours and colour pairs a lot, and each costs several
// elementary functions (elementary.hpp) to compute; a cached value is
// bit-identical to a recomputed one, so the caches change speed only, never
// results.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/zeroed_memory.hpp"
#include "metrics/ciede/color.hpp"
#include "metrics/ciede/lab_batch.hpp"

namespace vqx::ciede {

// (y, u, v) samples of at most 16 bits packed into one key.
inline std::uint64_t pack_yuv(unsigned y, unsigned u, unsigned v) {
  return (std::uint64_t{y} << 32) | (std::uint64_t{u} << 16) | v;
}

// No packed (y, u, v) has bits above bit 47, so this key is never looked up.
inline constexpr std::uint64_t kNoKey = ~std::uint64_t{0};

// A key as the pair cache stores it: its complement, so that an entry of
// zero bytes holds kNoKey, and fresh zeroed memory (allocate_zeroed: mapped,
// its pages untouched until used) is an empty table; filling the colour
// table with kNoKey took about 1500 page faults at start-up
// (docs/performance.md, "Start-up without small page faults"). The colour
// cache complements its tags the same way (LabCache::stored()).
inline std::uint64_t stored_key(std::uint64_t key) { return ~key; }

// Fibonacci hashing: the top `bits` bits of key * 2^64 / phi.
inline std::size_t hash_slot(std::uint64_t key, unsigned bits) {
  return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
}

// Lab colours by packed (y, u, v). A missing colour is reserved: added to a
// LabBatch and marked pending with its batch index, so that later pixels of
// the same batch with that colour share the computation; fill() stores the
// batch's results.
//
// An entry holds the colour's Lab and a tag saying which colour it is, or,
// while the colour is pending, the batch index in the Lab's place. With
// kNarrow (samples of at most 15 bits) the tag is the chroma alone, 30
// bits, and an entry 16 bytes: the luma follows from the slot, which is the
// chroma's hash plus the luma (slot()), as the luma is below the table's
// size. Without it (16-bit samples) the tag is the whole key and an entry
// 24 bytes. Narrow entries, none across two cache lines and twice as many
// in the memory of the wide form's, took 5 % less of ciede's CPU time
// (docs/performance.md).
template <bool kNarrow>
class LabCache {
 public:
  using Tag = std::conditional_t<kNarrow, std::uint32_t, std::uint64_t>;
  static constexpr unsigned kBits = kNarrow ? 19 : 18;
  // The widest samples the narrow form holds.
  static constexpr unsigned kNarrowDepth = 15;
  static_assert(kBits > 16, "a luma of up to 16 bits must follow from the slot and the chroma");

  // The slot of a colour: its chroma hashed, plus its luma. Neighbouring
  // pixels often share their chroma (one chroma sample serves 2 or 4 of
  // them in 4:2:0) and have close lumas, so their colours fall in the same
  // or adjacent cache lines of the table.
  static std::size_t slot(std::uint64_t key) {
    constexpr std::uint64_t kChroma = 0xFFFFFFFFU;
    return (hash_slot(key & kChroma, kBits) + static_cast<std::size_t>(key >> 32)) &
           ((std::size_t{1} << kBits) - 1);
  }

  void reset() { entries_ = make_zeroed_array<Entry>(std::size_t{1} << kBits); }

  // Asks for the slot of `key` to be brought into the cache, some lookups
  // ahead of find_or_reserve(): the table is larger than L2.
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&entries_[slot(key)]); }

  // A known colour: sets l, a, b to it and returns -1. Otherwise the index
  // in `batch` that computes it (l, a, b left as they are).
  int find_or_reserve(std::uint64_t key, LabBatch& batch, float& l, float& a, float& b) {
    Entry& e = entries_[slot(key)];
    const Tag tag = tag_of(key);
    if (e.stored == stored(tag, false)) {
      l = e.lab.l;
      a = e.lab.a;
      b = e.lab.b;
      return -1;
    }
    if (e.stored == stored(tag, true)) return pending_index(e);
    const int index = batch.add(key);
    e.stored = stored(tag, true);
    e.lab = Lab{std::bit_cast<float>(index), 0.0f, 0.0f};
    return index;
  }

  // Stores the computed colours whose reservations were not evicted since.
  void fill(const LabBatch& batch) {
    for (int i = 0; i < batch.count; ++i) {
      Entry& e = entries_[slot(batch.key[i])];
      const Tag tag = tag_of(batch.key[i]);
      if (e.stored == stored(tag, true) && pending_index(e) == i) {
        e = Entry{stored(tag, false), batch.lab(i)};
      }
    }
  }

 private:
  static constexpr Tag kPending = Tag{1} << (8 * sizeof(Tag) - 1);
  // The chroma (narrow: 15 bits each) or the whole key.
  static Tag tag_of(std::uint64_t key) {
    if constexpr (kNarrow) {
      return static_cast<Tag>((((key >> 16) & 0xFFFF) << kNarrowDepth) | (key & 0xFFFF));
    } else {
      return key;
    }
  }
  // A tag as stored, complemented: an entry of zero bytes holds a tag with
  // every bit set, which no colour has (bit 30 of a narrow tag and bits
  // 48..62 of a wide one are always clear), and is so empty.
  static Tag stored(Tag tag, bool pending) {
    return static_cast<Tag>(~(tag | (pending ? kPending : 0)));
  }
  struct Entry {
    Tag stored;  // stored()
    Lab lab;     // the colour; its l's bits the batch index while pending
  };
  static int pending_index(const Entry& e) { return std::bit_cast<int>(e.lab.l); }
  ZeroedArray<Entry> entries_;
};

class PairCache {
 public:
  static constexpr unsigned kBits = 14;

  void reset() { entries_ = make_zeroed_array<Entry>(std::size_t{1} << kBits); }

  static std::size_t slot(std::uint64_t ref, std::uint64_t dist) {
    return hash_slot(ref ^ (dist * 0xC2B2AE3D27D4EB4FULL), kBits);
  }
  // Asks for `slot` to be brought into the cache, some lookups ahead of
  // find(): the table is read in no order.
  void prefetch(std::size_t slot) const { __builtin_prefetch(&entries_[slot]); }
  // Whether the difference of (ref, dist) is stored in `slot`. Sets `out`
  // to the slot's difference either way (meaningless when not found), so
  // that a caller's loop over pixels need not branch on the answer (on P3's
  // x264 distortion 27 % of the lookups find their pair, in no order a
  // branch predictor learns).
  bool find(std::size_t slot, std::uint64_t ref, std::uint64_t dist, float& out) const {
    const Entry& e = entries_[slot];
    out = e.difference;
    return ((e.ref ^ stored_key(ref)) | (e.dist ^ stored_key(dist))) == 0;
  }
  void store(std::size_t slot, std::uint64_t ref, std::uint64_t dist, float difference) {
    entries_[slot] = Entry{stored_key(ref), stored_key(dist), difference};
  }

 private:
  struct Entry {
    std::uint64_t ref;  // stored_key()
    std::uint64_t dist;
    float difference;
  };
  ZeroedArray<Entry> entries_;
};

}  // namespace vqx::ciede
