#pragma once
// Contract: a FIFO queue over a power-of-two circular array. Storage grows
// by doubling to the peak number of elements held at once and is then
// reused, so a queue that fills and drains forever allocates nothing after
// warm-up (std::deque allocates a block per few elements it passes).
#include <cstddef>
#include <utility>
#include <vector>

namespace photonsim {

template <typename T>
class RingBuffer {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  const T& front() const { return slots_[head_]; }
  const T& back() const { return slots_[(head_ + size_ - 1) & (slots_.size() - 1)]; }
  // The i-th from the front (i < size()).
  const T& operator[](size_t i) const { return slots_[(head_ + i) & (slots_.size() - 1)]; }
  void push_back(const T& value) {
    if (size_ == slots_.size()) grow();
    slots_[(head_ + size_) & (slots_.size() - 1)] = value;
    ++size_;
  }
  T pop_front() {
    T value = std::move(slots_[head_]);
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
    return value;
  }

 private:
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 8 : slots_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move(slots_[(head_ + i) & (slots_.size() - 1)]);
    slots_ = std::move(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace photonsim
