"""The files a reproducer hands to tipc-run, written with numpy alone (no reprod_log or PaDiff
package is needed): reprod_log result files and PaDiff dumps (docs/log-formats.md)."""
import json
import os

import numpy as np
import torch


def save_reprod_log(path, values):
    """reprod_log's ReprodLogger.save: a (possibly nested) dict of numpy arrays, pickled into
    an object .npy by np.save."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.save(path, _as_arrays(values), allow_pickle=True)


def _as_arrays(values):
    if isinstance(values, dict):
        return {key: _as_arrays(value) for key, value in values.items()}
    if isinstance(values, torch.Tensor):
        return values.detach().cpu().numpy()
    return np.asarray(values)


class PadiffDump:
    """One rank directory of a PaDiff dump of `model`: report.json (each layer's forward output
    and the gradient of that output) and params.json (each layer's parameters and their
    gradients), tensors as .npy files under tensors/. Layers are named by route,
    `<root name>.<qualified module name>`, as PaDiff names them.

    Use: dump = PadiffDump(model, "AlexNet", rank_dir, "torch"); run forward and backward; dump.write()."""

    def __init__(self, model, root_name, rank_dir, framework):
        self.model, self.root_name, self.dir, self.framework = model, root_name, rank_dir, framework
        self.outputs, self.output_grads = {}, {}
        self.handles = [module.register_forward_hook(self._hook(name)) for name, module in model.named_modules()]
        self.count = 0

    def route(self, name):
        return self.root_name + ("." + name if name else "")

    def _hook(self, name):
        def record(_module, _inputs, output):
            self.outputs[name] = output.detach().clone()
            if output.requires_grad:
                output.register_hook(lambda grad: self.output_grads.__setitem__(name, grad.detach().clone()))
        return record

    def _tensor(self, value):
        relative = os.path.join("tensors", f"tensor_{self.count}.npy")
        self.count += 1
        np.save(os.path.join(self.dir, relative), value.detach().cpu().numpy())
        return relative

    def _report_node(self, name, module):
        entry = lambda t: {"path": self._tensor(t), "shape": list(t.shape), "dtype": str(t.dtype)}
        return {"name": type(module).__name__, "route": self.route(name), "type": "net",
                "fwd_outputs": [entry(self.outputs[name])] if name in self.outputs else [],
                "bwd_grads": [entry(self.output_grads[name])] if name in self.output_grads else [],
                "children": [self._report_node(_join(name, child), sub) for child, sub in module.named_children()]}

    def _param_node(self, name, module):
        params = list(module.named_parameters(recurse=False))
        return {"name": type(module).__name__, "route": self.route(name), "repr": repr(type(module)),
                "available": True,
                "weights": {key: self._tensor(p) for key, p in params},
                "grads": {key: self._tensor(p.grad) if p.grad is not None else None for key, p in params},
                "children": [self._param_node(_join(name, child), sub) for child, sub in module.named_children()]}

    def write(self):
        for handle in self.handles:
            handle.remove()
        os.makedirs(os.path.join(self.dir, "tensors"), exist_ok=True)
        head = {"model_name": self.root_name, "framework": self.framework}
        with open(os.path.join(self.dir, "report.json"), "w") as f:
            json.dump({**head, "tree": [self._report_node("", self.model)]}, f, indent=1)
        with open(os.path.join(self.dir, "params.json"), "w") as f:
            json.dump({**head, "tree": self._param_node("", self.model)}, f, indent=1)


def _join(parent, child):
    return f"{parent}.{child}" if parent else child
