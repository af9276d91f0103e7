#!/usr/bin/env python3
"""PyTorch baseline for core/compute/bench/main.ts: the IDENTICAL workloads, one JSON line out.

Workloads (float32, CPU):
  train   MLP 32-256-256-256-16 ReLU, batch 256, Adam(lr=1e-3), MSE: fwd+bwd+update, samples/s
  lat1    inference (no_grad) of the same MLP at batch 1: median latency, microseconds
  lat32   same at batch 32
  ens     4-network ensemble of that MLP (baddbmm on [4, in, out] weights), shared input, batch
          4096, forward only: milliseconds per call
  mm      1024x1024 @ 1024x1024 matmul: GFLOP/s
With --serve, only the training workloads run, on request (stdin "train <seconds>" for the MLP,
"train_res <seconds>" for the REVIVE-style residual MLP: 32 -> 256, 3 x [h + Linear(silu(Linear(
LayerNorm(h))))], LayerNorm, silu, -> 16, batch 256, Adam), so the caller can interleave PyTorch
and its own measurements under the same machine load; answers use the MEDIAN step time.
The thread configuration is set by the caller (torch threads argv[1]; OpenBLAS threads through
OPENBLAS_NUM_THREADS in the environment).
"""
import json
import sys
import time

try:
    import torch
except Exception as e:  # noqa: BLE001
    print(json.dumps({"error": f"torch unavailable: {e}"}))
    sys.exit(0)

SERVE = "--serve" in sys.argv
if SERVE:
    sys.argv.remove("--serve")
threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
budget = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
torch.set_num_threads(threads)
torch.manual_seed(0)
SIZES = [32, 256, 256, 256, 16]


def timeit(fn, budget_s=budget, min_iter=5, warmup=3, warmup_s=0.0):
    warm_end = time.perf_counter() + warmup_s
    i = 0
    while i < warmup or time.perf_counter() < warm_end:
        fn()
        i += 1
    times = []
    t_end = time.perf_counter() + budget_s
    while len(times) < min_iter or time.perf_counter() < t_end:
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        if len(times) > 100000:
            break
    times.sort()
    return times[len(times) // 2], sum(times) / len(times)


def mlp():
    layers = []
    for i in range(len(SIZES) - 1):
        layers.append(torch.nn.Linear(SIZES[i], SIZES[i + 1]))
        if i < len(SIZES) - 2:
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


out = {"torch": torch.__version__, "threads": threads}
net = mlp()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
X = torch.randn(256, 32)
Y = torch.randn(256, 16)


def step():
    opt.zero_grad()
    loss = ((net(X) - Y) ** 2).mean()
    loss.backward()
    opt.step()


class ResMLP(torch.nn.Module):
    """REVIVE-style residual MLP, as ResidualMLP in src/nn/module.ts."""

    def __init__(self, inp=32, out=16, h=256, blocks=3):
        super().__init__()
        self.input = torch.nn.Linear(inp, h)
        self.norms = torch.nn.ModuleList([torch.nn.LayerNorm(h, eps=1e-5) for _ in range(blocks)])
        self.fc1 = torch.nn.ModuleList([torch.nn.Linear(h, h) for _ in range(blocks)])
        self.fc2 = torch.nn.ModuleList([torch.nn.Linear(h, h) for _ in range(blocks)])
        self.final = torch.nn.LayerNorm(h, eps=1e-5)
        self.output = torch.nn.Linear(h, out)

    def forward(self, x):
        h = self.input(x)
        for n, f1, f2 in zip(self.norms, self.fc1, self.fc2):
            h = h + f2(torch.nn.functional.silu(f1(n(h))))
        return self.output(torch.nn.functional.silu(self.final(h)))


if SERVE:
    # Interleaved mode: one "train|train_res <seconds>" command per line, one JSON answer per line.
    res = ResMLP()
    res_opt = torch.optim.Adam(res.parameters(), lr=1e-3)

    def step_res():
        res_opt.zero_grad()
        loss = ((res(X) - Y) ** 2).mean()
        loss.backward()
        res_opt.step()

    for _ in range(3):
        step()
        step_res()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        parts = line.split()
        if not parts or parts[0] not in ("train", "train_res"):
            break
        fn = step if parts[0] == "train" else step_res
        count = [0]

        def counted():
            count[0] += 1
            fn()

        c0 = time.process_time()
        med, _ = timeit(counted, float(parts[1]), 3)
        cpu = time.process_time() - c0
        # cpu_samples_s: samples per CPU-second of this process (all its threads), which the
        # machine's load barely changes: the fair figure for 1-thread comparisons.
        print(json.dumps({"train_samples_s": 256 / med, "cpu_samples_s": 256 * count[0] / max(cpu, 1e-9)}), flush=True)
    sys.exit(0)

_, mean = timeit(step, budget, 5, 10, budget / 4)  # same warm-up as bench/main.ts runOurs
out["train_samples_s"] = 256 / mean
with torch.no_grad():
    x1 = torch.randn(1, 32)
    x32 = torch.randn(32, 32)
    out["lat1_us"] = timeit(lambda: net(x1))[0] * 1e6
    out["lat32_us"] = timeit(lambda: net(x32))[0] * 1e6
    E = 4
    Ws = [torch.randn(E, SIZES[i], SIZES[i + 1]) * 0.05 for i in range(len(SIZES) - 1)]
    Bs = [torch.randn(E, 1, SIZES[i + 1]) * 0.05 for i in range(len(SIZES) - 1)]
    xe = torch.randn(4096, 32)

    def ens():
        h = xe.unsqueeze(0).expand(E, -1, -1)
        for i in range(len(Ws)):
            h = torch.baddbmm(Bs[i], h, Ws[i])
            if i < len(Ws) - 1:
                h = torch.relu(h)
        return h

    out["ens_ms"] = timeit(ens)[1] * 1e3
    a = torch.randn(1024, 1024)
    b = torch.randn(1024, 1024)
    out["mm_gflops"] = 2 * 1024 ** 3 / timeit(lambda: a @ b)[1] / 1e9
print(json.dumps(out))
