package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// S3 keeps files in an S3 bucket (AWS or an S3-compatible store) and signs SigV4 URLs.
// Its file URLs are the presigned PUT URLs without their query string.
type S3 struct {
	client  *s3.Client
	presign *s3.PresignClient
	bucket  string
	// maxUpload is the largest size PresignPut signs.
	maxUpload int64
	// bases are the bucket addresses a file URL may start with; the first is the one the
	// client itself uses and FileURL returns.
	bases []*url.URL
}

var _ Blob = (*S3)(nil)

// NewS3 builds the client for cfg.S3Bucket. With cfg.S3Endpoint set it addresses the
// bucket path-style at that endpoint; with cfg.S3AccessKey and cfg.S3SecretKey set it
// uses them instead of the default AWS credential chain. No request is sent.
func NewS3(ctx context.Context, cfg Config) (*S3, error) {
	if cfg.S3Bucket == "" {
		return nil, errors.New("s3 storage: bucket required")
	}
	if (cfg.S3AccessKey == "") != (cfg.S3SecretKey == "") {
		return nil, errors.New("s3 storage: set both access key and secret key, or neither")
	}
	limit, err := maxUpload(cfg)
	if err != nil {
		return nil, fmt.Errorf("s3 storage: %w", err)
	}
	var opts []func(*config.LoadOptions) error
	if cfg.S3Region != "" {
		opts = append(opts, config.WithRegion(cfg.S3Region))
	}
	if cfg.S3AccessKey != "" {
		opts = append(opts, config.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cfg.S3AccessKey, cfg.S3SecretKey, "")))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("s3 storage: load aws config: %w", err)
	}
	if awsCfg.Region == "" {
		if cfg.S3Endpoint == "" {
			return nil, errors.New("s3 storage: region required (S3 region setting or AWS_REGION)")
		}
		awsCfg.Region = "us-east-1" // what S3-compatible stores expect by default
	}
	client := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		if cfg.S3Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.S3Endpoint)
			o.UsePathStyle = true
		}
	})

	s := &S3{client: client, presign: s3.NewPresignClient(client), bucket: cfg.S3Bucket, maxUpload: limit}
	styles := []bool{client.Options().UsePathStyle}
	if cfg.S3Endpoint == "" {
		styles = append(styles, !styles[0]) // AWS serves both addressing styles
	}
	for _, pathStyle := range styles {
		base, err := s.resolveBase(ctx, pathStyle)
		if err != nil {
			return nil, fmt.Errorf("s3 storage: %w", err)
		}
		s.bases = append(s.bases, base)
	}
	return s, nil
}

// PresignPut returns a SigV4 URL accepting a PUT of the file with the header Content-Type
// equal to contentType, Content-Length equal to size and If-None-Match equal to "*"
// (WriteOnceHeader) until ttl has passed. All three headers are signed, so the bucket
// itself refuses a body of another length, and the PUT is a conditional write: once an
// object is stored under key, the bucket answers every later PUT with 412 and keeps the
// object. size is required (UnknownSize gives ErrSizeRequired): without it the bucket
// would take a file of any size.
func (s *S3) PresignPut(ctx context.Context, key, contentType string, size int64, ttl time.Duration) (string, error) {
	if size == UnknownSize {
		return "", fmt.Errorf("presign put %s: %w", key, ErrSizeRequired)
	}
	if err := errors.Join(checkKey(key), checkContentType(contentType), checkUploadSize(size, s.maxUpload), checkTTL(ttl)); err != nil {
		return "", fmt.Errorf("presign put %s: %w", key, err)
	}
	req, err := s.presign.PresignPutObject(ctx, &s3.PutObjectInput{
		Bucket:        &s.bucket,
		Key:           &key,
		ContentType:   &contentType,
		ContentLength: &size, // signed: the SigV4 signer covers a positive Content-Length
		IfNoneMatch:   aws.String(WriteOnceValue),
	}, s3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("presign put %s: %w", key, err)
	}
	// The file URL is this URL without its query; make sure KeyFromURL will accept it, so
	// a misconfigured endpoint fails here rather than when the file is read.
	fileURL, _, _ := strings.Cut(req.URL, "?")
	if got, err := s.KeyFromURL(fileURL); err != nil || got != key {
		return "", fmt.Errorf("presign put %s: presigned url %s does not map back to the key", key, fileURL)
	}
	for _, h := range []string{"Content-Length", WriteOnceHeader} {
		if !signsHeader(req.SignedHeader, h) {
			return "", fmt.Errorf("presign put %s: %s is not among the signed headers", key, strings.ToLower(h))
		}
	}
	return req.URL, nil
}

// signsHeader reports whether a presigned request's signed headers include name.
func signsHeader(h http.Header, name string) bool {
	_, ok := h[http.CanonicalHeaderKey(name)]
	return ok
}

// MaxUploadBytes is the largest size PresignPut signs.
func (s *S3) MaxUploadBytes() int64 { return s.maxUpload }

// PresignGet returns a SigV4 URL that reads the file until ttl has passed.
func (s *S3) PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if err := errors.Join(checkKey(key), checkTTL(ttl)); err != nil {
		return "", fmt.Errorf("presign get %s: %w", key, err)
	}
	req, err := s.presign.PresignGetObject(ctx, &s3.GetObjectInput{
		Bucket: &s.bucket,
		Key:    &key,
	}, s3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("presign get %s: %w", key, err)
	}
	return req.URL, nil
}

// PresignDownload returns a SigV4 URL that downloads the file as fileName (the bucket
// answers with the signed response-content-disposition) until ttl has passed.
func (s *S3) PresignDownload(ctx context.Context, key, fileName string, ttl time.Duration) (string, error) {
	if err := errors.Join(checkKey(key), checkTTL(ttl), checkDownloadName(fileName)); err != nil {
		return "", fmt.Errorf("presign download %s: %w", key, err)
	}
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": fileName})
	req, err := s.presign.PresignGetObject(ctx, &s3.GetObjectInput{
		Bucket:                     &s.bucket,
		Key:                        &key,
		ResponseContentDisposition: &disposition,
	}, s3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("presign download %s: %w", key, err)
	}
	return req.URL, nil
}

// Put uploads the size bytes of r under key.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if err := errors.Join(checkKey(key), checkContentType(contentType), checkSize(size)); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	var optFns []func(*s3.Options)
	if _, seekable := r.(io.Seeker); !seekable && s.bases[0].Scheme == "http" {
		// Without TLS the SDK signs the body's hash, which needs a body it can rewind;
		// send an unseekable body unsigned instead (an S3-compatible store on a private
		// network). Over HTTPS the SDK streams it with a trailing checksum.
		optFns = append(optFns, func(o *s3.Options) {
			o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			o.APIOptions = append(o.APIOptions, v4.SwapComputePayloadSHA256ForUnsignedPayloadMiddleware)
		})
	}
	_, err := s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        &s.bucket,
		Key:           &key,
		Body:          r,
		ContentLength: &size,
		ContentType:   &contentType,
	}, optFns...)
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// Get opens the object stored under key; NoSuchKey becomes ErrNotFound.
func (s *S3) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key})
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode() == "NoSuchKey" {
		return nil, fmt.Errorf("get %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	return out.Body, nil
}

// Delete removes the object stored under key.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key}); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// DeletePrefix lists the objects under prefix and deletes them, a thousand per request.
func (s *S3) DeletePrefix(ctx context.Context, prefix string) error {
	if err := checkPrefix(prefix); err != nil {
		return fmt.Errorf("delete prefix %s: %w", prefix, err)
	}
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: &prefix})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("delete prefix %s: list: %w", prefix, err)
		}
		if len(page.Contents) == 0 {
			continue
		}
		objects := make([]types.ObjectIdentifier, len(page.Contents))
		for i, o := range page.Contents {
			objects[i] = types.ObjectIdentifier{Key: o.Key}
		}
		out, err := s.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: &s.bucket,
			Delete: &types.Delete{Objects: objects, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return fmt.Errorf("delete prefix %s: %w", prefix, err)
		}
		if len(out.Errors) > 0 {
			e := out.Errors[0]
			return fmt.Errorf("delete prefix %s: %d objects not deleted, first %s: %s",
				prefix, len(out.Errors), aws.ToString(e.Key), aws.ToString(e.Message))
		}
	}
	return nil
}

// Stat reads the object's size and content type with a HEAD request.
func (s *S3) Stat(ctx context.Context, key string) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, fmt.Errorf("stat %s: %w", key, err)
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key})
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && (apiErr.ErrorCode() == "NotFound" || apiErr.ErrorCode() == "NoSuchKey") {
		return Info{}, fmt.Errorf("stat %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return Info{}, fmt.Errorf("stat %s: %w", key, err)
	}
	return Info{Size: aws.ToInt64(out.ContentLength), ContentType: aws.ToString(out.ContentType)}, nil
}

// FileURL returns the object's unsigned address in the addressing style the client uses.
func (s *S3) FileURL(key string) string {
	return strings.TrimSuffix(s.bases[0].String(), "/") + "/" + key
}

// KeyFromURL returns the key of a URL addressing an object of this bucket: path-style or
// virtual-hosted on AWS, path-style under the custom endpoint otherwise.
func (s *S3) KeyFromURL(fileURL string) (string, error) {
	return keyFromURL(fileURL, s.bases...)
}

// resolveBase asks the SDK's endpoint rules for the bucket's address in one addressing
// style, with the client's own region, endpoint, FIPS and dual-stack settings.
func (s *S3) resolveBase(ctx context.Context, pathStyle bool) (*url.URL, error) {
	o := s.client.Options()
	ep, err := s3.NewDefaultEndpointResolverV2().ResolveEndpoint(ctx, s3.EndpointParameters{
		Bucket:         &s.bucket,
		Region:         &o.Region,
		Endpoint:       o.BaseEndpoint,
		ForcePathStyle: &pathStyle,
		UseFIPS:        aws.Bool(o.EndpointOptions.UseFIPSEndpoint == aws.FIPSEndpointStateEnabled),
		UseDualStack:   aws.Bool(o.EndpointOptions.UseDualStackEndpoint == aws.DualStackEndpointStateEnabled),
	}.WithDefaults())
	if err != nil {
		return nil, fmt.Errorf("resolve bucket address (path style %t): %w", pathStyle, err)
	}
	return &ep.URI, nil
}
