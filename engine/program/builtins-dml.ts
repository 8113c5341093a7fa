/**
 * DML-bodied builtins: functions SystemDS loads from
 * `scripts/builtin/<name>.dml` on first use (`m_<name>`, `f_<name>`,
 * `s_<name>`). Calls follow user-function rules (all arguments named or all
 * positional). The parameter lists below were read from the SystemDS scripts
 * for the common builtins; they change between SystemDS releases, so a few
 * entries accept the parameter names of both older and newer releases, and
 * every argument problem with these builtins is a warning, not an error.
 * The remaining builtins of docs/DML_LANGUAGE.md section 6 are known by name only.
 */
import { dml, dmlNameOnly, optional, p, required, withAliases, type BuiltinSignature } from "./builtin-types";
import { ownEntry } from "./own-entry";

const regression: BuiltinSignature[] = [
  dml("lm", [...required("X", "y"), ...optional("icpt", "reg", "tol", "maxi", "verbose")], 1),
  dml("lmDS", [...required("X", "y"), ...optional("icpt", "reg", "verbose")], 1),
  dml("lmCG", [...required("X", "y"), ...optional("icpt", "reg", "tol", "maxi", "verbose")], 1),
  // `ytest` in current releases, `Ytest` in older ones
  dml("lmPredict", [...required("X", "B"), ...optional("ytest", "Ytest", "icpt", "verbose")], 1),
  dml("glm", [...required("X", "Y"), ...optional("dfam", "vpow", "link", "lpow", "yneg", "icpt", "disp", "reg", "tol", "moi", "mii", "verbose")], 1),
  dml("steplm", [...required("X", "y"), ...optional("icpt", "reg", "tol", "maxi", "verbose")], 2),
  dml("cvlm", [...required("X", "y", "k"), ...optional("icpt", "reg")], 2),
  dml("cspline", [...required("X", "Y", "inp_x"), ...optional("mode", "tol", "maxi")], 2),
  dml("csplineCG", [...required("X", "Y", "inp_x"), ...optional("tol", "maxi")], 2),
  dml("csplineDS", required("X", "Y", "inp_x"), 2),
];

const classification: BuiltinSignature[] = [
  // `reg` in newer releases, `lambda` in older ones
  dml("l2svm", [...required("X", "Y"), ...optional("intercept", "epsilon", "tol", "reg", "lambda", "maxIterations", "maxIter", "maxii", "verbose", "columnId")], 1),
  dml("l2svmPredict", [...required("X", "W"), p("verbose", false)], 2),
  // `tol`/`maxIter` in current releases, `epsilon`/`maxIterations` (and `num_classes`, `lambda`) in older ones
  dml("msvm", [...required("X", "Y"), ...optional("intercept", "num_classes", "epsilon", "tol", "reg", "lambda", "maxIterations", "maxIter", "verbose")], 1),
  dml("msvmPredict", required("X", "W"), 2),
  dml("multiLogReg", [...required("X", "Y"), ...optional("icpt", "tol", "reg", "maxi", "maxii", "verbose")], 1),
  dml("multiLogRegPredict", [...required("X", "B"), ...optional("Y", "verbose")], 3),
  dml("naiveBayes", [...required("D", "C"), ...optional("laplace", "verbose")], 2),
  dml("naiveBayesPredict", required("X", "P", "C"), 2),
  dml("getAccuracy", [...required("y", "yhat"), p("isWeighted", false)], 1, "scalar"),
  dml("confusionMatrix", required("P", "Y"), 2),
  dml("auc", required("Y", "P"), 1, "scalar"),
  // Current releases return a 1 x 1 matrix and the quantiles of `P` (two results); older ones a scalar.
  dml("mse", [...required("X", "Y"), p("P", false)], 2, "unknown"),
  dml("rmse", [...required("X", "Y"), p("P", false)], 2, "unknown"),
  dml("abstain", [...required("X", "Y"), ...optional("threshold", "verbose")], 2),
];

const clustering: BuiltinSignature[] = [
  dml("kmeans", [p("X"), ...optional("k", "runs", "max_iter", "eps", "is_verbose", "avg_sample_size_per_centroid", "seed")], 2),
  dml("kmeansPredict", required("X", "C"), 1),
  dml("dbscan", [p("X"), ...optional("eps", "minPts")], 3),
  dml("als", [p("X"), ...optional("rank", "regType", "reg", "maxi", "check", "thr", "seed", "verbose")], 2),
  dml("alsCG", [p("X"), ...optional("rank", "regType", "reg", "maxi", "check", "thr", "seed", "verbose")], 2),
  dml("alsDS", [p("X"), ...optional("rank", "reg", "maxi", "check", "thr", "seed", "verbose")], 2),
  dml("pca", [p("X"), ...optional("K", "center", "scale")], 4),
  dml("pcaTransform", [...required("X", "Clusters"), ...optional("Centering", "ScaleFactor")], 1),
  dml("pcaInverse", [...required("Y", "Clusters"), ...optional("Centering", "ScaleFactor")], 1),
];

const preprocessing: BuiltinSignature[] = [
  dml("scale", [p("X"), ...optional("center", "scale")], 3),
  dml("scaleApply", required("X", "Centering", "ScaleFactor"), 1),
  dml("normalize", [p("X")], 3),
  dml("normalizeApply", required("X", "cmin", "cmax"), 1),
  dml("imputeByMean", required("X", "mask"), 2),
  dml("imputeByMedian", required("X", "mask"), 2),
  dml("toOneHot", required("X", "numClasses"), 1),
  dml("winsorize", [p("X"), ...optional("ql", "qu", "verbose")], 3),
  dml("na_locf", [p("X"), ...optional("option", "verbose")], 1),
  dml("outlier", required("X", "opposite"), 1),
  dml("smote", [...required("X", "mask"), ...optional("s", "k", "verbose")], 2),
  dml("split", [...required("X", "Y"), ...optional("f", "cont", "seed")], 4),
  dml("tomeklink", required("X", "y"), 3),
  dml("underSampling", required("X", "Y", "ratio"), 1),
  dml("WoE", required("X", "Y", "mask"), 3),
  dml("vectorToCsv", [p("mask")], 1, "scalar"),
  dml("correctTypos", [p("strings"), ...optional("frequency_threshold", "distance_threshold", "decapitalize", "correct", "is_verbose")], 1, "frame"),
  dml("dmv", [p("X"), ...optional("threshold", "replace")], 1, "frame"),
  dml("frameSort", [...required("F", "mask"), p("orderDesc", false)], 1, "frame"),
  dml("denialConstraints", required("dataFrame", "constraintsFrame"), 1),
];

const misc: BuiltinSignature[] = [
  dml("sigmoid", [p("X")], 1, "unknown"),
  dml("softmax", [p("S")], 1),
  dml("dist", [p("X")], 1),
  dml("components", [p("G"), ...optional("maxi", "verbose")], 1),
  dml("shortestPath", [p("G"), p("maxi", false), p("sourceNode"), p("verbose", false)], 1),
  dml("stableMarriage", [...required("P", "A"), ...optional("ordered", "verbose")], 1),
  dml("hospitalResidencyMatch", [...required("R", "H", "capacity"), p("verbose", false)], 2),
  dml("raJoin", [...required("A", "colA", "B", "colB"), p("method", false)], 1),
  dml("matrixProfile", [p("ts"), ...optional("windowSize", "sampleFrac", "verbose")], 2),
  dml("ema", required("X", "search_iterations", "mode", "freq", "alpha", "beta", "gamma"), 1, "frame"),
  dml("img_transform", required("img_in", "out_w", "out_h", "a", "b", "c", "d", "e", "f", "fill_value"), 1),
  dml("sliceLineExtract", [...required("X", "e", "TK", "TKC"), p("k2", false)], 3),
  dml("cooccurrenceMatrix", required("input", "maxTokens", "windowSize", "distanceWeighting", "symmetric"), 2),
  dml(
    "gridSearch",
    [...required("X", "y", "train", "predict"), p("numB", false), ...required("params", "paramValues"), ...optional("trainArgs", "dataArgs", "predictArgs", "cv", "cvk", "verbose")],
    2,
  ),
  dml("hyperband", [...required("X", "Y", "Xtest", "Ytest", "params", "paramRanges"), ...optional("R", "eta", "verbose")], 2),
];

const KNOWN = [...regression, ...classification, ...clustering, ...preprocessing, ...misc];

/** Every DML-bodied builtin of docs/DML_LANGUAGE.md section 6 (SystemDS `Builtins.java`, script = true). */
const ALL_NAMES = `
cspline csplineCG csplineDS lm lmCG lmDS lmPredict lmPredictStats glm glmPredict steplm lasso cvlm
l2svm l2svmPredict msvm msvmPredict multiLogReg multiLogRegPredict naiveBayes naiveBayesPredict decisionTree
decisionTreePredict randomForest randomForestPredict xgboost xgboostPredict xgboostPredictRegression
xgboostPredictClassification knn knnbf knnGraph gaussianClassifier ffTrain ffPredict lenetTrain lenetPredict
independentSubnetTrain sherlock sherlockPredict autoencoder_2layer kmeans kmeansPredict dbscan dbscanApply gmm
gmmPredict als alsCG alsDS alsPredict alsTopkPredict gnmf pnmf pca pcaTransform pcaInverse ppca tSNE glove
quantizeByCluster univar bivar stratstats cor skewness statsNA cox km fdr differenceStatistics flattenQuantile
auc f1Score mse rmse mae mape smape msmape nrmse psnr mcc getAccuracy confusionMatrix wer imputeByMean
imputeByMeanApply imputeByMedian imputeByMedianApply imputeByMode imputeByModeApply imputeByFD imputeByFDApply
imputeByKNN mice miceApply na_locf outlier outlierByIQR outlierByIQRApply outlierBySd outlierBySdApply
outlierByArima winsorize winsorizeApply correctTypos correctTyposApply dedup mdedup fixInvalidLengths
fixInvalidLengthsApply denialConstraints discoverFD dmv ampute abstain scale scaleApply scaleRobust
scaleRobustApply scaleMinMax normalize normalizeApply toOneHot frequencyEncode frequencyEncodeApply WoE WoEApply
selectByVarThresh smote adasyn underSampling tomeklink split splitBalanced vectorToCsv frameSort arima ses ema
garch matrixProfile components pageRank shortestPath deepWalk cooccurrenceMatrix stableMarriage
hospitalResidencyMatch img_mirror img_mirror_linearized img_brightness img_brightness_linearized img_crop
img_crop_linearized img_transform img_transform_linearized img_translate img_translate_linearized img_rotate
img_rotate_linearized img_shear img_shear_linearized img_cutout img_cutout_linearized img_sample_pairing
img_sample_pairing_linearized img_invert img_invert_linearized img_posterize img_posterize_linearized
topk_cleaning fit_pipeline apply_pipeline executePipeline bandit hyperband gridSearch sliceLine sliceLineDebug
sliceLineExtract slicefinder incSliceLine shapExplainer impurityMeasures raJoin raGroupby raSelection union
intersect setdiff symmetricDifference sigmoid softmax logSumExp dist sqrtMatrix xdummy1 xdummy2
applyAndEvaluate outlierByDB
`
  .trim()
  .split(/\s+/);

const ALIASES: Readonly<Record<string, string[]>> = { fdr: ["FDR"] };

function build(): BuiltinSignature[] {
  const known = new Map(KNOWN.map((s) => [s.name, s]));
  const all = ALL_NAMES.map((name) => known.get(name) ?? dmlNameOnly(name));
  for (const signature of KNOWN) if (!ALL_NAMES.includes(signature.name)) all.push(signature);
  return all.map((s) => {
    const aliases = ownEntry(ALIASES, s.name);
    return aliases ? withAliases(s, ...aliases) : s;
  });
}

export const DML_BODIED_BUILTINS: readonly BuiltinSignature[] = build();
