/**
 * Exact similarity search over stored embeddings, read in place from a mapped segment.
 *
 * <p>{@link dev.tala.segment.vector.VectorKernels} holds one SIMD kernel per stored dtype (f32,
 * f16, bf16, int8, laid out as docs/FORMAT.md describes); each computes the dot product with an
 * f32 {@link dev.tala.segment.vector.Query} and the stored vector's squared norm in a single pass,
 * so cosine costs no second read of the vector. {@link dev.tala.segment.vector.ScalarKernels} is
 * the plain reference they are tested against. {@link dev.tala.segment.vector.VectorScoring}
 * scores a range of slots of an embeddings region by a {@link dev.tala.segment.vector.Metric} and
 * feeds a {@link dev.tala.segment.vector.TopK}.
 *
 * <p>A kernel's result depends only on its inputs and the lane count of the machine: lanes are
 * summed in a fixed order (see {@code Lanes.sum}), so the same query scores a vector with the same
 * bits whether the JIT has compiled the kernel yet or not, and ties between search results break
 * the same way on every run. (A stored f16 NaN is the exception: its payload may differ, see
 * {@code F16Kernel}; any NaN score is a NaN either way.)
 *
 * <p>The kernels use the incubating Vector API: run with {@code --add-modules jdk.incubator.vector}
 * (see jvm.options).
 */
package dev.tala.segment.vector;
