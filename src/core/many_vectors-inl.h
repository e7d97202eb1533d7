// Many<V, K>: K Highway vectors side by side, with the arithmetic applied to
// each in turn, for kernels whose per-lane arithmetic is long chains of
// dependent floating-point operations (polynomials, divisions): written as
// one expression on Many values, each step issues K independent operations,
// so that the chains of K vectors advance together instead of one vector's
// chain after another (docs/architecture.md, "CPU kernels"). Only IEEE
// operations of one lane at a time, no fused multiply-add: a lane's result
// is the scalar expression's.
//
// A per-target header (Highway's "-inl.h" convention): include it after
// hwy/highway.h in a file that foreach_target.h compiles once per target.
#if defined(VQX_CORE_MANY_VECTORS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VQX_CORE_MANY_VECTORS_INL_H_
#undef VQX_CORE_MANY_VECTORS_INL_H_
#else
#define VQX_CORE_MANY_VECTORS_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace vqx::HWY_NAMESPACE {
namespace many {

namespace hn = hwy::HWY_NAMESPACE;

template <class V, int K>
struct Many {
  V v[K];
};

// fn applied to vector k of each argument, for every k.
template <class Fn, class V, int K, class... Rest>
HWY_INLINE auto Map(const Fn& fn, const Many<V, K>& first, const Rest&... rest) {
  Many<decltype(fn(first.v[0], rest.v[0]...)), K> r;
  for (int k = 0; k < K; ++k) r.v[k] = fn(first.v[k], rest.v[k]...);
  return r;
}

template <class V, int K>
HWY_INLINE Many<V, K> Splat(hn::TFromV<V> x) {
  Many<V, K> r;
  for (V& v : r.v) v = hn::Set(hn::DFromV<V>(), x);
  return r;
}

// The four operations, also with a constant on either side.
#define VQX_MANY_OPERATOR(op, Fn)                                               \
  template <class V, int K>                                                     \
  HWY_INLINE Many<V, K> operator op(const Many<V, K>& a, const Many<V, K>& b) { \
    return Map([](V x, V y) { return hn::Fn(x, y); }, a, b);                    \
  }                                                                             \
  template <class V, int K>                                                     \
  HWY_INLINE Many<V, K> operator op(const Many<V, K>& a, hn::TFromV<V> c) {     \
    const V cv = hn::Set(hn::DFromV<V>(), c);                                   \
    return Map([cv](V x) { return hn::Fn(x, cv); }, a);                         \
  }                                                                             \
  template <class V, int K>                                                     \
  HWY_INLINE Many<V, K> operator op(hn::TFromV<V> c, const Many<V, K>& b) {     \
    const V cv = hn::Set(hn::DFromV<V>(), c);                                   \
    return Map([cv](V y) { return hn::Fn(cv, y); }, b);                         \
  }
VQX_MANY_OPERATOR(+, Add)
VQX_MANY_OPERATOR(-, Sub)
VQX_MANY_OPERATOR(*, Mul)
VQX_MANY_OPERATOR(/, Div)
#undef VQX_MANY_OPERATOR

template <class V, int K>
HWY_INLINE Many<V, K> Neg(const Many<V, K>& a) {
  return Map([](V x) { return hn::Neg(x); }, a);
}
template <class V, int K>
HWY_INLINE Many<V, K> Sqrt(const Many<V, K>& a) {
  return Map([](V x) { return hn::Sqrt(x); }, a);
}
// The sign bit cleared (std::fabs).
template <class V, int K>
HWY_INLINE Many<V, K> Abs(const Many<V, K>& a) {
  return Map([](V x) { return hn::Abs(x); }, a);
}
// c ? yes : no, lane by lane.
template <class M, class V, int K>
HWY_INLINE Many<V, K> Select(const Many<M, K>& c, const Many<V, K>& yes, const Many<V, K>& no) {
  return Map([](M m, V y, V n) { return hn::IfThenElse(m, y, n); }, c, yes, no);
}
// Comparisons, quiet (false for NaN, as C++'s operators are).
template <class V, int K>
HWY_INLINE auto Less(const Many<V, K>& a, const Many<V, K>& b) {
  return Map([](V x, V y) { return hn::Lt(x, y); }, a, b);
}
template <class V, int K>
HWY_INLINE auto Less(const Many<V, K>& a, hn::TFromV<V> c) {
  const V cv = hn::Set(hn::DFromV<V>(), c);
  return Map([cv](V x) { return hn::Lt(x, cv); }, a);
}
template <class V, int K>
HWY_INLINE auto Greater(const Many<V, K>& a, hn::TFromV<V> c) {
  const V cv = hn::Set(hn::DFromV<V>(), c);
  return Map([cv](V x) { return hn::Gt(x, cv); }, a);
}
template <class V, int K>
HWY_INLINE auto Equal(const Many<V, K>& a, hn::TFromV<V> c) {
  const V cv = hn::Set(hn::DFromV<V>(), c);
  return Map([cv](V x) { return hn::Eq(x, cv); }, a);
}
template <class M, int K>
HWY_INLINE Many<M, K> And(const Many<M, K>& a, const Many<M, K>& b) {
  return Map([](M x, M y) { return hn::And(x, y); }, a, b);
}
template <class M, int K>
HWY_INLINE Many<M, K> Or(const Many<M, K>& a, const Many<M, K>& b) {
  return Map([](M x, M y) { return hn::Or(x, y); }, a, b);
}

// Loads and stores of K vectors at p, p + Lanes, ... (aligned, or not).
template <class D, int K>
HWY_INLINE Many<hn::Vec<D>, K> Load(D d, const hn::TFromD<D>* HWY_RESTRICT p) {
  Many<hn::Vec<D>, K> r;
  for (int k = 0; k < K; ++k) r.v[k] = hn::Load(d, p + k * hn::Lanes(d));
  return r;
}
template <class D, int K>
HWY_INLINE Many<hn::Vec<D>, K> LoadU(D d, const hn::TFromD<D>* HWY_RESTRICT p) {
  Many<hn::Vec<D>, K> r;
  for (int k = 0; k < K; ++k) r.v[k] = hn::LoadU(d, p + k * hn::Lanes(d));
  return r;
}
template <class D, int K>
HWY_INLINE void Store(const Many<hn::Vec<D>, K>& m, D d, hn::TFromD<D>* HWY_RESTRICT p) {
  for (int k = 0; k < K; ++k) hn::Store(m.v[k], d, p + k * hn::Lanes(d));
}
template <class D, int K>
HWY_INLINE void StoreU(const Many<hn::Vec<D>, K>& m, D d, hn::TFromD<D>* HWY_RESTRICT p) {
  for (int k = 0; k < K; ++k) hn::StoreU(m.v[k], d, p + k * hn::Lanes(d));
}

}  // namespace many
}  // namespace vqx::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // VQX_CORE_MANY_VECTORS_INL_H_
