// ascendc_cpu_cores.h - the cores of a launch, and SyncAll between them.
//
// Part of the AscendC CPU model (see README.md). The harness runs each core of a launch on a
// host thread of its own, but only one at a time: a core runs until its kernel ends or it reaches
// a SyncAll, then hands over to the next. SyncAll (asc-devkit docs/zh/api/SIMD-API/基础API/同步控制/
// 核间同步/SyncAll.md, the hard form `SyncAll<isAIVOnly = true>()`, and Ascend 950's form with a
// SyncAllConfig) returns once every AIV core of the launch (GetBlockNum() cores) has reached it.
//
// Order of the cores (assumed: the device runs them at once; a kernel whose result depends on
// their order between two barriers races, and GM atomics add in an order the docs leave open):
// between two SyncAlls, and before the first and after the last, the cores run one after another
// in block index order, 0 first. So with two SyncAlls core 0 runs to its first, core 1 to its
// first, ..., core N-1 to its first, then core 0 to its second, ...; a GM atomic add of several
// cores in one such phase adds in block index order.
//
// Rules (each a violation naming the call):
//   * a core that ends its kernel while others wait at a SyncAll, or reaches a SyncAll after
//     another core ended without reaching it: the device hangs ("卡死") there;
//   * SyncAll<false>() (a Mix kernel's: its cube cores are not modelled) and a SyncAllConfig other
//     than DEFAULT_SYNC_ALL_CONFIG's {PIPE_ALL, PIPE_ALL} are refused as not modelled; the
//     software form SyncAll(gmWorkspace, ubWorkspace, usedCores) is not declared.
// A SyncAll orders every pipe of the core (its default config triggers and waits on all pipes:
// the sync checker sees a PipeBarrier<PIPE_ALL>), and every GM write before it before every GM
// write after it (the check that two cores write different values to one GM byte then sees
// the earlier write as ordered).
//
// What a core keeps while another runs: its UB bytes and every per-core field of Runtime
// (SwapCore below lists them; a per-core field added to Runtime must be added there).
#ifndef ASCENDC_CPU_CORES_H
#define ASCENDC_CPU_CORES_H

#include "ascendc_cpu_fn.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "ascendc_cpu_hb.h"
#include "ascendc_cpu_record.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_tensor.h"

namespace ascendc_cpu {

/// Exchanges the per-core part of the runtime with `saved` (UB bytes through `ub`).
ASCENDC_CPU_FN void SwapCore(Runtime& saved, std::vector<uint8_t>& ub)
{
    Runtime& rt = Rt();
    std::vector<uint8_t> here(rt.arena, rt.arena + rt.ubBytes);
    if (ub.size() == rt.ubBytes) {
        std::memcpy(rt.arena, ub.data(), rt.ubBytes);
    }
    ub.swap(here);
    std::swap(rt.blockIdx, saved.blockIdx);
    std::swap(rt.inBlock, saved.inBlock);
    std::swap(rt.ubUsed, saved.ubUsed);
    std::swap(rt.ubPeak, saved.ubPeak);
    std::swap(rt.ubLayout, saved.ubLayout);
    std::swap(rt.livePipes, saved.livePipes);
    std::swap(rt.pipeClock, saved.pipeClock);
    std::swap(rt.shadow, saved.shadow);
    std::swap(rt.pipe, saved.pipe);
    std::swap(rt.records, saved.records);
    std::swap(rt.callSite, saved.callSite);
    std::swap(rt.callDepth, saved.callDepth);
    std::swap(rt.vCallStart, saved.vCallStart);
    std::swap(rt.flags, saved.flags);
    std::swap(rt.heldIds, saved.heldIds);
    std::swap(rt.vDone, saved.vDone);
    std::swap(rt.vPrevRead, saved.vPrevRead);
    std::swap(rt.vCalls, saved.vCalls);
    std::swap(rt.loopMode, saved.loopMode);
    std::swap(rt.maskCounter, saved.maskCounter);
    std::swap(rt.ctrl, saved.ctrl);
    std::swap(rt.vectorMask, saved.vectorMask);
    std::swap(rt.maskEpoch, saved.maskEpoch);
    std::swap(rt.atomic, saved.atomic);
}

/// The cores of one launch: who runs, who waits at a SyncAll, who has ended.
class Cores {
public:
    enum class State { kWaiting, kReady, kRunning, kAtBarrier, kEnded };

    /// Runs `core(b)` for every block b in [0, num), one at a time, in the order above.
    void Run(int64_t num, const std::function<void(int64_t)>& core)
    {
        num_ = num;
        state_.assign(static_cast<size_t>(num), State::kWaiting);
        saved_.clear();
        saved_.resize(static_cast<size_t>(num));
        ub_.assign(static_cast<size_t>(num), std::vector<uint8_t>());
        current_ = -1;
        if (num == 1) {  // nothing to wait for: no thread
            current_ = 0;
            state_[0] = State::kRunning;
            core(0);
            state_[0] = State::kEnded;
            return;
        }
        std::vector<std::thread> threads;
        threads.reserve(static_cast<size_t>(num));
        for (int64_t b = 0; b < num; ++b) {
            threads.emplace_back([this, b, &core] {
                {
                    std::unique_lock<std::mutex> lock(mutex_);
                    wake_.wait(lock, [this, b] { return current_ == b; });
                }
                core(b);
                std::unique_lock<std::mutex> lock(mutex_);
                state_[static_cast<size_t>(b)] = State::kEnded;
                HandOver(lock, b);
            });
        }
        {
            std::unique_lock<std::mutex> lock(mutex_);
            current_ = 0;
            state_[0] = State::kRunning;
        }
        wake_.notify_all();
        for (std::thread& t : threads) {
            t.join();
        }
    }

    /// The current core reached a SyncAll: it waits for the others (the harness's threads), or
    /// returns at once when it is the only core.
    void Barrier(const Site& site)
    {
        if (num_ <= 1) {
            return;
        }
        std::unique_lock<std::mutex> lock(mutex_);
        const int64_t me = current_;
        for (int64_t b = 0; b < num_; ++b) {
            if (state_[static_cast<size_t>(b)] == State::kEnded) {
                Fail("SyncAll", Msg("block ", b, " ended its kernel without reaching this SyncAll (", Where(site),
                    "): the device hangs here"));
            }
        }
        state_[static_cast<size_t>(me)] = State::kAtBarrier;
        bool all = true;
        for (State s : state_) {
            all = all && s == State::kAtBarrier;
        }
        if (all) {
            for (State& s : state_) {
                s = State::kReady;
            }
            OrderGmWrites();
        }
        SwapCore(saved_[static_cast<size_t>(me)], ub_[static_cast<size_t>(me)]);
        HandOver(lock, me);
        wake_.wait(lock, [this, me] { return current_ == me; });
        SwapCore(saved_[static_cast<size_t>(me)], ub_[static_cast<size_t>(me)]);
        RecordCore(me);
    }

private:
    /// Gives the host to the lowest-index core that may run (a released one, else one not yet
    /// started); none while cores wait at a SyncAll is a hang.
    void HandOver(std::unique_lock<std::mutex>& lock, int64_t from)
    {
        int64_t next = -1;
        for (State want : {State::kReady, State::kWaiting}) {
            for (int64_t b = 0; b < num_ && next < 0; ++b) {
                if (state_[static_cast<size_t>(b)] == want) {
                    next = b;
                }
            }
        }
        if (next < 0) {
            for (int64_t b = 0; b < num_; ++b) {
                if (state_[static_cast<size_t>(b)] == State::kAtBarrier) {
                    Fail("SyncAll", Msg("block ", b, " waits at a SyncAll that block ", from,
                        " ended its kernel without reaching: the device hangs there"));
                }
            }
            current_ = -1;
            lock.unlock();
            wake_.notify_all();
            return;
        }
        state_[static_cast<size_t>(next)] = State::kRunning;
        current_ = next;
        lock.unlock();
        wake_.notify_all();
        lock.lock();
    }

    /// Every GM byte written so far is ordered before what comes after the barrier.
    static void OrderGmWrites()
    {
        for (GmRegion& r : Rt().gm) {
            for (uint16_t& w : r.writer) {
                w = w == 0 ? 0 : kGmWriteOrdered;
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    int64_t num_ = 0;
    int64_t current_ = -1;
    std::vector<State> state_;
    std::vector<Runtime> saved_;
    std::vector<std::vector<uint8_t>> ub_;
};

ASCENDC_CPU_FN Cores& LaunchCores()
{
    static Cores cores;
    return cores;
}

}  // namespace ascendc_cpu

namespace AscendC {

/// Ascend 950's SyncAll pipe choice (SyncAll.md 表1).
struct SyncAllConfig {
    pipe_t triggerPipe;
    pipe_t waitPipe;
};
constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};

/// SyncAll<isAIVOnly, config>(): every AIV core of the launch waits here for the others
/// (ascendc_cpu_cores.h).
template <bool isAIVOnly = true, const SyncAllConfig& config = DEFAULT_SYNC_ALL_CONFIG>
inline void SyncAll(ascendc_cpu::Site site = ascendc_cpu::Site())
{
    if constexpr (!isAIVOnly) {
        ascendc_cpu::Fail("SyncAll", "SyncAll<false> (a Mix kernel's, with cube cores) is not modelled");
    }
    if (config.triggerPipe != PIPE_ALL || config.waitPipe != PIPE_ALL) {
        ascendc_cpu::Fail("SyncAll", "a SyncAllConfig other than {PIPE_ALL, PIPE_ALL} is not modelled");
    }
    {
        ascendc_cpu::CallScope scope(site);
        ascendc_cpu::RecordLine("barrier ALL");
        ascendc_cpu::JoinAll();
    }
    ascendc_cpu::LaunchCores().Barrier(site);
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_CORES_H
