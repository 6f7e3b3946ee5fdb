"""The fake TIPC config the benchmarks run: PaddleOCR's positional layout, with the
interpreter, the train command and the inference matrix as parameters."""

# A fake repository has none of PaddleOCR's marker directories, so it names its dialect in
# test_tipc/tipc-run.yaml (tipc-run stops rather than guess a dialect).
SETTINGS = "dialect: paddleocr\n"


def config(python, train, model="bench", gpu_list="-1", threads="1", batches="1", eval_="null",
           export="export", infer="infer", infer_gpu="False"):
    return f"""===========================train_params===========================
model_name:{model}
python:{python}
gpu_list:{gpu_list}
--use-gpu:False
--amp:null
--epochs:lite_train_lite_infer=1
--save-dir:./output/
--batch-size:lite_train_lite_infer=1
--pretrained:null
train_model_name:latest
train_infer_img_dir:./data
null:null
##
trainer:norm_train
norm_train:{train}
pact_train:null
fpgm_train:null
distill_train:null
null:null
null:null
##
===========================eval_params===========================
eval:{eval_}
null:null
##
===========================infer_params===========================
--output-dir:./output/
--checkpoint:
norm_export:{export}
quant_export:null
fpgm_export:null
distill_export:null
export1:null
export2:null
inference_dir:null
infer_model:./m
infer_export:null
infer_quant:False
inference:{infer}
--use-gpu:{infer_gpu}
--enable-mkldnn:False
--cpu-threads:{threads}
--batch-size:{batches}
--use-tensorrt:False
--precision:fp32
--model-dir:
--image-dir:./data
null:null
--benchmark:False
null:null
"""
