#!/usr/bin/python3
"""Trains the demo AlexNet. With WORLD_SIZE > 1 (tipc-run's rank-env launcher sets RANK,
WORLD_SIZE, MASTER_ADDR and MASTER_PORT) it trains data-parallel: gloo on CPU, nccl on GPUs.
Each rank of several says where it runs (the Slurm node, else the host) and where the ranks
met. Rank 0 saves <save-dir>/latest.pt and writes <save-dir>/train.log. Every step's line ends
with PaddleOCR's benchmark figures (ips, batch_cost, reader_cost, max_mem_reserved), which
tipc-run reports for benchmark_train; on CPU the memory is the process's peak RSS. Two
switches inject regressions for the gate's demo (README.md, "Injected regressions"):
TIPC_DEMO_SLOWDOWN=F makes every step take 1 + F times its compute time, and
TIPC_DEMO_ACCURACY_DROP=1 trains with learning rate 0."""
import argparse
import os
import resource
import socket
import time

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel

import common


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data-dir", required=True)
    p.add_argument("--save-dir", required=True)
    p.add_argument("--use-gpu", type=common.str2bool, default=False)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--lr", type=float, default=0.003)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--pretrained", default=None)
    p.add_argument("--threads", type=int, default=1)
    return p.parse_args()


def benchmark_figures(samples, reader_cost, batch_cost, device):
    """PaddleOCR's format (tools/program.py), which the benchmark's analysis step reads."""
    if device.type == "cuda":
        reserved = torch.cuda.max_memory_reserved(device) // (1 << 20)
    else:
        reserved = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024  # KiB on Linux
    return (f"avg_reader_cost: {reader_cost:.5f} s, avg_batch_cost: {batch_cost:.5f} s, avg_samples: {samples}, "
            f"ips: {samples / batch_cost:.5f} samples/s, max_mem_reserved: {reserved} MB")


def busy_wait(seconds):
    """Extra compute time inside the timed step, as a slower kernel would add. A sleep would
    give the CPU away: on a loaded machine waking up again takes a scheduler slice (ms) more."""
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        pass


def main():
    args = parse_args()
    torch.set_num_threads(args.threads)
    rank, world = int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))
    device = common.pick_device(args.use_gpu)
    if world > 1:
        dist.init_process_group("nccl" if device.type == "cuda" else "gloo", rank=rank, world_size=world)
        node = os.environ.get("SLURMD_NODENAME") or socket.gethostname()
        common.log("train", f"rank {rank}/{world} on {node} joined at "
                   f"{os.environ.get('MASTER_ADDR')}:{os.environ.get('MASTER_PORT')}")
    common.seed_everything(args.seed)
    images, labels, _, classes = common.load_split(args.data_dir)
    model = common.AlexNet(len(classes)).to(device)
    if args.pretrained:
        model.load_state_dict(torch.load(args.pretrained, map_location=device)["model"])
    net = DistributedDataParallel(model) if world > 1 else model
    slowdown = common.demo_switch("TIPC_DEMO_SLOWDOWN")
    lr = 0.0 if common.demo_switch("TIPC_DEMO_ACCURACY_DROP") else args.lr  # the weights stay as initialised
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=max(1, args.epochs))
    loss_fn = nn.CrossEntropyLoss()
    os.makedirs(args.save_dir, exist_ok=True)
    log_file = open(os.path.join(args.save_dir, "train.log"), "w") if rank == 0 else None
    generator = torch.Generator().manual_seed(args.seed)
    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(len(images), generator=generator)[rank::world]  # this rank's shard
        batches = [order[i:i + args.batch_size] for i in range(0, len(order), args.batch_size)]
        net.train()
        for it, index in enumerate(batches, 1):
            step_start = time.perf_counter()
            x, y = images[index].to(device), labels[index].to(device)
            reader_cost = time.perf_counter() - step_start
            optimizer.zero_grad()
            logits = net(x)
            loss = loss_fn(logits, y)
            loss.backward()
            optimizer.step()
            acc = (logits.argmax(1) == y).float().mean().item()
            if slowdown:
                busy_wait(slowdown * (time.perf_counter() - step_start))
            batch_cost = time.perf_counter() - step_start
            common.log("train", f"rank {rank}/{world} epoch: {epoch}/{args.epochs}, iter: {it}/{len(batches)}, "
                       f"loss: {loss.item():.6f}, lr: {scheduler.get_last_lr()[0]:.6f}, acc: {acc:.6f}, "
                       f"{benchmark_figures(len(index), reader_cost, batch_cost, device)}", log_file)
        scheduler.step()
    if rank == 0:
        path = os.path.join(args.save_dir, common.CHECKPOINT_NAME)
        common.save_checkpoint(path, model, classes, args.epochs)
        common.log("train", f"rank 0 saved {path}", log_file)
    if world > 1:
        dist.barrier()
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
