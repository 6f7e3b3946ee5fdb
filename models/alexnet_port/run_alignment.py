"""Runs the demo AlexNet (the reference) and its port on the same fake data, and writes what
a reproducer hands in (models/alexnet_port/README.md):

  OUT/log_reprod/<check>_torch.npy, <check>_paddle.npy   forward, metric, loss, bp_align, train_align
  OUT/init/init_torch.npy, init_paddle.npy               the initial weights, for init-check
  OUT/padiff/reference, OUT/padiff/port                  PaDiff dumps of one train step
  OUT/padiff/layer_map.yaml, OUT/padiff/layout.yaml      how the port's layers pair with the reference's
  OUT/train_align_curves.svg                              both training losses, step by step

`--misalign NAME` plants one of port.MISALIGNMENTS in the port. The reprod_log keys are the
reference's parameter names, every array in the reference's layout; the dumps hold each
model's tensors as it lays them out.
"""
import argparse
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "alexnet"))
sys.path.insert(0, HERE)

from common import AlexNet  # noqa: E402  (the reference)
import port as portlib  # noqa: E402
from reprod_files import PadiffDump, save_reprod_log  # noqa: E402
from svg_plot import write_loss_plot  # noqa: E402

NUM_CLASSES = 4
SEED = 2024
BATCH = 16
# Backward alignment: SGD with momentum, as the guide's; the lr decays inside the window.
# (Adam would not do: its first steps move every weight by +-lr whatever the size of its
# gradient, so gradients of 1e-9 that differ in sign between two correct implementations
# part the weights by 2 * lr.)
# Both alignments train in float64: in float32, of the 262,144 first-layer pre-activations
# of a batch some lie within float32's rounding of zero, and their ReLU gates open in one
# model and close in the other, which moves the mean gradient difference to 1e-7..1e-6,
# at the threshold (a port that is right can fail on one CPU and pass on another).
BP = {"optimizer": "momentum", "lr": 0.05, "steps": 5, "decay_step": 3}
# Training alignment: Adam, as models/alexnet/train.py trains; 192 of the 256 images, once.
TRAIN = {"optimizer": "adam", "lr": 0.003, "steps": 12, "decay_step": 8}


def fake_data(rng, count):
    """Images of 4 classes, NCHW float32: a smooth random pattern per class (4 x 4 blocks of
    8 x 8 pixels) plus as much noise."""
    coarse = np.random.RandomState(SEED).randn(NUM_CLASSES, 3, 4, 4)
    patterns = coarse.repeat(8, axis=2).repeat(8, axis=3)
    labels = rng.randint(0, NUM_CLASSES, size=count)
    images = patterns[labels] + rng.randn(count, 3, 32, 32)
    return torch.from_numpy(images.astype(np.float32)), torch.from_numpy(labels.astype(np.int64))


def nhwc(images):
    return images.permute(0, 2, 3, 1).contiguous()


def make_models(misalign, dtype=torch.float32):
    torch.manual_seed(SEED)
    reference = AlexNet(NUM_CLASSES)
    for module in reference.modules():  # out of place, so that PaDiff's hooks see each output
        if isinstance(module, torch.nn.ReLU):
            module.inplace = False
    port = portlib.PortNet(NUM_CLASSES, drop_bias=misalign == "drop-bias")
    if misalign == "own-init":
        portlib.init_own_defaults(port)
    else:
        portlib.init_from_reference(port, reference)
    return reference.to(dtype), port.to(dtype)


def without_dropout(reference, port):
    """The guide's backward and training alignment remove randomness: dropout off."""
    reference.classifier[3].p = 0.0
    port.head.drop.p = 0.0
    reference.train()
    port.train()


def top1(logits, labels):
    return np.array((logits.argmax(dim=1) == labels).float().mean().item(), dtype=np.float32)


def port_grads(port):
    """The port's gradients under the reference's names and in its layout, for reprod_log."""
    return {portlib.reference_name(name): portlib.to_reference_layout(name, p.grad).clone()
            for name, p in port.named_parameters()}


def optimizers(reference, port, schedule):
    """The reference's torch optimizer and lr scheduler, and the port's own optimizer."""
    if schedule["optimizer"] == "adam":
        ref_opt, port_opt = torch.optim.Adam(reference.parameters(), lr=schedule["lr"]), portlib.Adam(port.parameters())
    else:
        ref_opt = torch.optim.SGD(reference.parameters(), lr=schedule["lr"], momentum=0.9)
        port_opt = portlib.Momentum(port.parameters(), 0.9)
    return ref_opt, torch.optim.lr_scheduler.MultiStepLR(ref_opt, [schedule["decay_step"]], 0.1), port_opt


def train_steps(reference, port, data, schedule, misalign, record_grads):
    """The schedule's steps of each model on the same batches: per step the loss before the
    update, the learning rate and (record_grads) the gradients."""
    images, labels = data
    ref_opt, ref_sched, port_opt = optimizers(reference, port, schedule)
    ref_log, port_log = {}, {}
    for step in range(schedule["steps"]):
        batch = slice((step * BATCH) % len(images), (step * BATCH) % len(images) + BATCH)
        ref_opt.zero_grad()
        ref_loss = F.cross_entropy(reference(images[batch]), labels[batch])
        ref_loss.backward()
        port_opt.zero_grad()
        port_loss = F.cross_entropy(port(nhwc(images[batch])), labels[batch])
        port_loss.backward()
        port_lr = portlib.lr_at(step, schedule["lr"], schedule["decay_step"], misaligned=misalign == "lr-schedule")
        ref_log[f"loss_{step}"], port_log[f"loss_{step}"] = ref_loss, port_loss
        ref_log[f"lr_{step}"], port_log[f"lr_{step}"] = np.array(ref_opt.param_groups[0]["lr"]), np.array(port_lr)
        if record_grads:
            ref_log[f"grad_{step}"] = {name: p.grad.clone() for name, p in reference.named_parameters()}
            port_log[f"grad_{step}"] = port_grads(port)
        ref_opt.step()
        ref_sched.step()
        port_opt.step(port_lr)
    return ref_log, port_log


def save_pair(out, check, ref_values, port_values):
    save_reprod_log(os.path.join(out, "log_reprod", f"{check}_torch.npy"), ref_values)
    save_reprod_log(os.path.join(out, "log_reprod", f"{check}_paddle.npy"), port_values)


def forward_metric_loss(out, misalign, eval_data):
    """Forward, metric and loss: the initial models in eval mode on the eval images."""
    reference, port = make_models(misalign)
    reference.eval()
    port.eval()
    images, labels = eval_data
    with torch.no_grad():
        ref_logits, port_logits = reference(images), port(nhwc(images))
    save_pair(out, "forward", {"logits": ref_logits}, {"logits": port_logits})
    save_pair(out, "metric", {"top1": top1(ref_logits, labels)}, {"top1": top1(port_logits, labels)})
    save_pair(out, "loss", {"loss": F.cross_entropy(ref_logits, labels)},
              {"loss": F.cross_entropy(port_logits, labels)})
    save_reprod_log(os.path.join(out, "init", "init_torch.npy"), dict(reference.state_dict()))
    save_reprod_log(os.path.join(out, "init", "init_paddle.npy"),
                    {portlib.reference_name(name): p for name, p in port.named_parameters()})


def in_float64(data):
    images, labels = data
    return images.double(), labels


def backward_alignment(out, misalign, train_data):
    reference, port = make_models(misalign, torch.float64)
    without_dropout(reference, port)
    ref_log, port_log = train_steps(reference, port, in_float64(train_data), BP, misalign, True)
    save_pair(out, "bp_align", ref_log, port_log)


def training_alignment(out, misalign, train_data, eval_data):
    reference, port = make_models(misalign, torch.float64)
    without_dropout(reference, port)
    ref_log, port_log = train_steps(reference, port, in_float64(train_data), TRAIN, misalign, False)
    reference.eval()
    port.eval()
    images, labels = in_float64(eval_data)
    with torch.no_grad():
        save_pair(out, "train_align", {"top1": top1(reference(images), labels)},
                  {"top1": top1(port(nhwc(images)), labels)})
    losses = lambda log: [float(log[f"loss_{step}"]) for step in range(TRAIN["steps"])]
    write_loss_plot(os.path.join(out, "train_align_curves.svg"),
                    {"reference (torch)": losses(ref_log), "port": losses(port_log)})


def padiff_dumps(out, misalign, train_data):
    """One train step of each model, dumped layer by layer as PaDiff dumps it."""
    reference, port = make_models(misalign)
    without_dropout(reference, port)
    images, labels = train_data[0][:8], train_data[1][:8]
    rank_dir = lambda side: os.path.join(out, "padiff", side, "step_0", "rank_0")
    for model, root, side, framework, inputs in ((reference, "AlexNet", "reference", "torch", images),
                                                 (port, "PortNet", "port", "paddle", nhwc(images))):
        dump = PadiffDump(model, root, rank_dir(side), framework)
        F.cross_entropy(model(inputs), labels).backward()
        dump.write()
    write_padiff_rules(os.path.join(out, "padiff"), port)


def write_padiff_rules(folder, port):
    """The LayerMap (the port's stages spliced out, so that its backbone's layers pair with the
    reference's flat `features`) and the layouts of the port's tensors relative to the reference's."""
    with open(os.path.join(folder, "layer_map.yaml"), "w") as f:
        f.write("raw:\n  ignore: [PortNet.backbone.stage1, PortNet.backbone.stage2, PortNet.backbone.stage3]\n")
    with open(os.path.join(folder, "layout.yaml"), "w") as f:
        f.write("layout:\n")
        for name, module in port.backbone.named_modules(prefix="PortNet.backbone"):
            if isinstance(module, portlib.Conv2D):
                f.write(f"  {name}.weight: hwio_to_oihw   # its kernel and its gradient\n")
            if not name.endswith(("stage1", "stage2", "stage3")):  # the stages are spliced out
                f.write(f"  {name}: [0, 3, 1, 2]   # NHWC output and its gradient\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="folder for the files (created)")
    parser.add_argument("--misalign", choices=sorted(portlib.MISALIGNMENTS), help="plant one mistake in the port")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    rng = np.random.RandomState(SEED + 1)
    train_data, eval_data = fake_data(rng, 256), fake_data(rng, 128)
    forward_metric_loss(args.out, args.misalign, eval_data)
    backward_alignment(args.out, args.misalign, train_data)
    training_alignment(args.out, args.misalign, train_data, eval_data)
    padiff_dumps(args.out, args.misalign, train_data)
    print(f"run_alignment: wrote {args.out} (port: {portlib.MISALIGNMENTS.get(args.misalign, 'aligned')})")


if __name__ == "__main__":
    main()
