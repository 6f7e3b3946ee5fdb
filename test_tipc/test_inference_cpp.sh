#!/bin/bash
# The demo's C++ inference chain (TIPC's cpp_infer), run from the repository root:
#
#   bash test_tipc/test_inference_cpp.sh test_tipc/configs/alexnet_cpp.txt cpp_infer
#
# Reads the positional config (cpp_infer_params), builds the C++ program with CMake in its
# own build directory, exports the pretrained checkpoint to TorchScript, and runs the program
# over the inference matrix (CPU threads x batch sizes), one log per run and one status line
# per command in test_tipc/output/<model>/cpp_infer/results_cpp.log. It needs the demo's
# data unpacked (tipc-run's data steps of test_tipc/tipc-run.yaml do it; by hand:
# `tar -xf lite_data/lite_data.tar -C lite_data` and the same for alexnet_pretrained.tar)
# and Debian's libtorch-dev. Self-contained: it sources nothing.

FILENAME=$1
MODE=${2:-cpp_infer}

function func_parser_key() {
    local strs=$1
    IFS=":"
    local array=(${strs})
    echo ${array[0]}
}

function func_parser_value() {
    local strs=$1
    IFS=":"
    local array=(${strs})
    echo ${array[1]}
}

# KEY=VALUE, or a blank when the key or the value is null or empty.
function func_set_params() {
    local key=$1 value=$2
    if [ "${key}" = "null" ] || [ "${value}" = "null" ] || [ ${#value} -le 0 ]; then
        echo " "
    else
        echo "${key}=${value}"
    fi
}

function status_check() {
    local last_status=$1 run_command=$2 run_log=$3 model_name=$4 log_path=$5
    if [ $last_status -eq 0 ]; then
        echo -e "\033[33m Run successfully with command - ${model_name} - ${run_command} - ${log_path} \033[0m" | tee -a ${run_log}
    else
        echo -e "\033[33m Run failed with command - ${model_name} - ${run_command} - ${log_path} \033[0m" | tee -a ${run_log}
    fi
}

dataline=$(awk 'NR==1, NR==16{print}' $FILENAME)
IFS=$'\n'
lines=(${dataline})

model_name=$(func_parser_value "${lines[1]}")
python=$(func_parser_value "${lines[2]}")
cpp_dir=$(func_parser_value "${lines[3]}")
infer_model=$(func_parser_value "${lines[4]}")
export_script=$(func_parser_value "${lines[5]}")
export_dir_key=$(func_parser_key "${lines[6]}")
export_dir=$(func_parser_value "${lines[6]}")
inference_cmd=$(func_parser_value "${lines[7]}")
cpp_use_gpu_key=$(func_parser_key "${lines[8]}")
cpp_use_gpu_list=$(func_parser_value "${lines[8]}")
cpp_use_mkldnn_key=$(func_parser_key "${lines[9]}")
cpp_use_mkldnn_list=$(func_parser_value "${lines[9]}")
cpp_cpu_threads_key=$(func_parser_key "${lines[10]}")
cpp_cpu_threads_list=$(func_parser_value "${lines[10]}")
cpp_batch_size_key=$(func_parser_key "${lines[11]}")
cpp_batch_size_list=$(func_parser_value "${lines[11]}")
cpp_precision_key=$(func_parser_key "${lines[12]}")
cpp_precision_list=$(func_parser_value "${lines[12]}")
cpp_infer_model_key=$(func_parser_key "${lines[13]}")
cpp_image_dir_key=$(func_parser_key "${lines[14]}")
cpp_infer_img_dir=$(func_parser_value "${lines[14]}")
cpp_benchmark_key=$(func_parser_key "${lines[15]}")
cpp_benchmark_value=$(func_parser_value "${lines[15]}")

IFS=$' \t\n'

LOG_PATH="./test_tipc/output/${model_name}/${MODE}"
mkdir -p ${LOG_PATH}
status_log="${LOG_PATH}/results_cpp.log"

# The pretrained checkpoint as TorchScript (model.pt, classes.txt), which the program loads.
function func_export() {
    local export_log="${LOG_PATH}/export.log"
    local set_output=$(func_set_params "${export_dir_key}" "${export_dir}")
    local export_cmd="${python} ${export_script} --checkpoint=${infer_model} ${set_output}"
    eval "${export_cmd} > ${export_log} 2>&1"
    local last_status=$?
    cat ${export_log}
    status_check $last_status "${export_cmd}" "${status_log}" "${model_name}" "${export_log}"
}

# A fresh build directory, then CMake and make in it; back in the repository root after.
function func_build() {
    local up=$(echo "${cpp_dir}/build" | sed 's|[^/]*|..|g')  # from the build directory to the root
    cd ${cpp_dir}
    rm -rf build
    mkdir -p build
    cd build
    local cmake_cmd="cmake .. > ${up}/${LOG_PATH#./}/build_cmake.log 2>&1"
    eval ${cmake_cmd}
    local cmake_status=$?
    local make_cmd="make -j2 > ${up}/${LOG_PATH#./}/build_make.log 2>&1"
    eval ${make_cmd}
    local make_status=$?
    cd ${up}
    status_check $cmake_status "${cmake_cmd}" "${status_log}" "${model_name}" "${LOG_PATH}/build_cmake.log"
    status_check $make_status "${make_cmd}" "${status_log}" "${model_name}" "${LOG_PATH}/build_make.log"
}

# The inference matrix: CPU only (Debian's libtorch has no CUDA), threads x batch sizes x precisions.
function func_cpp_inference() {
    IFS='|'
    local use_gpu use_mkldnn threads batch_size precision
    for use_gpu in ${cpp_use_gpu_list[*]}; do
        if [ ${use_gpu} != "False" ] && [ ${use_gpu} != "cpu" ]; then
            echo "the demo's C++ program runs on the CPU only: ${cpp_use_gpu_key}=${use_gpu} is not run"
            continue
        fi
        for use_mkldnn in ${cpp_use_mkldnn_list[*]}; do
            for threads in ${cpp_cpu_threads_list[*]}; do
                for batch_size in ${cpp_batch_size_list[*]}; do
                    for precision in ${cpp_precision_list[*]}; do
                        local save_log="${LOG_PATH}/cpp_infer_cpu_usemkldnn_${use_mkldnn}_threads_${threads}_precision_${precision}_batchsize_${batch_size}.log"
                        local set_mkldnn=$(func_set_params "${cpp_use_mkldnn_key}" "${use_mkldnn}")
                        local set_cpu_threads=$(func_set_params "${cpp_cpu_threads_key}" "${threads}")
                        local set_batchsize=$(func_set_params "${cpp_batch_size_key}" "${batch_size}")
                        local set_precision=$(func_set_params "${cpp_precision_key}" "${precision}")
                        local set_model_dir=$(func_set_params "${cpp_infer_model_key}" "${export_dir}")
                        local set_infer_data=$(func_set_params "${cpp_image_dir_key}" "${cpp_infer_img_dir}")
                        local set_benchmark=$(func_set_params "${cpp_benchmark_key}" "${cpp_benchmark_value}")
                        local command="${inference_cmd} ${cpp_use_gpu_key}=${use_gpu} ${set_mkldnn} ${set_cpu_threads} ${set_batchsize} ${set_precision} ${set_model_dir} ${set_infer_data} ${set_benchmark} > ${save_log} 2>&1 "
                        eval $command
                        local last_status=${PIPESTATUS[0]}
                        eval "cat ${save_log}"
                        status_check $last_status "${command}" "${status_log}" "${model_name}" "${save_log}"
                    done
                done
            done
        done
    done
}

echo "################### build the C++ program ###################"
func_build
echo "################### export the model ###################"
func_export
echo "################### run the inference matrix ###################"
func_cpp_inference
